import ConcurrencySupport

/// Holds the requests a test's server passes through it until the test lets them go: a
/// lookup answered late, a request that reaches the server late, an answer that never comes.
///
/// ```swift
/// var asked = gate.hold()
/// … // something sends a request, which calls `await gate.pass(name)`
/// let name = await asked.next()  // it is held now
/// gate.release()
/// ```
public final class RequestGate: Sendable {
    private struct Held: Sendable {
        var release: OneShotValue<Bool>
        var asked: AsyncStream<String>.Continuation
        var once: Bool
    }

    private let held = LockedValue<Held?>(nil)

    /// Lets everything through until ``hold(once:)``.
    public init() {}

    /// Holds requests from now on (only the next one when `once`); gives what each one held
    /// asks for, as it is held.
    public func hold(once: Bool = false) -> AsyncStream<String>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        held.withLock { $0 = Held(release: OneShotValue(), asked: continuation, once: once) }
        return stream.makeAsyncIterator()
    }

    /// Lets the held requests go; later ones are held too when `keepHolding`, else pass.
    public func release(keepHolding: Bool = false) {
        let release = held.withLock { held -> OneShotValue<Bool>? in
            let release = held?.release
            if keepHolding, let asked = held?.asked {
                held = Held(release: OneShotValue(), asked: asked, once: false)
            } else {
                held = nil
            }
            return release
        }
        release?.give(true)
    }

    /// Tells `request` and waits while requests are held; at once when they are not. False
    /// when the waiting task was cancelled first.
    public func pass(_ request: String) async -> Bool {
        let gate = held.withLock { held -> Held? in
            defer { if held?.once == true { held = nil } }
            return held
        }
        guard let gate else { return true }
        gate.asked.yield(request)
        return await gate.release.value() != nil
    }
}
