import SoundServerSandbox

/// Two real softphones on one sandbox server, ready to call each other over loopback: the
/// rig for tests of calls made by an application that knows nothing of RouteKit.
///
/// ```swift
/// try await SoftphonePair.with(server: server) { phones in
///     try await phones.call()        // the caller dials, the callee answers at once
///     let streams = try await phones.caller.streams(seenBy: observer)
///     try await phones.hangUp()
/// }                                  // both stopped, also when the body throws
/// ```
///
/// Both phones play on the server's default sink and record from its default source, so a
/// test adds a sink and a microphone (``SandboxServer/loadStreamingMicrophone(name:description:)``) first.
public final class SoftphonePair: Sendable {
    /// The phone that dials.
    public let caller: Softphone
    /// The phone that answers (at once, by itself).
    public let callee: Softphone

    private init(caller: Softphone, callee: Softphone) {
        self.caller = caller
        self.callee = callee
    }

    /// Both phones.
    public var phones: [Softphone] { [caller, callee] }

    /// Starts both phones on `server`.
    public static func start(server: SandboxServer) async throws -> SoftphonePair {
        let caller = try await Softphone.start("caller", server: server)
        do {
            return SoftphonePair(caller: caller, callee: try await Softphone.start("callee", server: server))
        } catch {
            await caller.stop()
            throw error
        }
    }

    /// Starts both phones on `server`, runs `body` with them, and stops them, also when
    /// `body` throws.
    public static func with<Result>(
        server: SandboxServer,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SoftphonePair) async throws -> Result
    ) async throws -> Result {
        let pair = try await start(server: server)
        do {
            let result = try await body(pair)
            await pair.stop()
            return result
        } catch {
            await pair.stop()
            throw error
        }
    }

    /// The caller dials the callee, which answers; returns once both say the call is
    /// established (their audio is then starting: await the streams on the server).
    public func call() async throws {
        let marks = (await caller.messages.count, await callee.messages.count)
        try await caller.dial(callee.uri)
        try await caller.event("CALL_ESTABLISHED", after: marks.0)
        try await callee.event("CALL_ESTABLISHED", after: marks.1)
    }

    /// The caller hangs up; returns once both say the call is closed.
    public func hangUp() async throws {
        let marks = (await caller.messages.count, await callee.messages.count)
        try await caller.hangUp()
        try await caller.event("CALL_CLOSED", after: marks.0)
        try await callee.event("CALL_CLOSED", after: marks.1)
    }

    /// Stops both phones (by pid) and returns once both have been reaped.
    public func stop() async {
        async let callerStopped: Void = caller.stop()
        async let calleeStopped: Void = callee.stop()
        _ = await (callerStopped, calleeStopped)
    }
}
