import ConcurrencySupport

/// A bound on the calls each client (sender) may have waiting for their answer at once, over
/// the exported objects that share it. A call past it is refused on the connection's thread
/// before its arguments are read, with `errorName` and a message naming the limit, so a client
/// that floods costs one header check per call.
///
/// ```swift
/// let limit = CallsInFlightLimit(perSender: 16, errorName: "org.example.Error.LimitExceeded")
/// let object = try await connection.export(interface, at: path, properties: [:], callsInFlight: limit)
/// ```
public final class CallsInFlightLimit: Sendable {
    /// The counts, by sender; a sender with none has no entry. Pure.
    struct Counts: Sendable {
        private(set) var bySender: [String: Int] = [:]
        let limit: Int

        /// Counts a new call of `sender`'s; false (and nothing counted) when it has `limit` already.
        mutating func admit(_ sender: String) -> Bool {
            let now = bySender[sender, default: 0]
            guard now < limit else { return false }
            bySender[sender] = now + 1
            return true
        }

        /// One of `sender`'s calls was answered.
        mutating func finish(_ sender: String) {
            guard let now = bySender[sender] else { return }
            bySender[sender] = now > 1 ? now - 1 : nil
        }
    }

    /// The most calls one sender may have waiting.
    public let perSender: Int
    /// The D-Bus error a call past the limit is answered with.
    public let errorName: String
    private let counts: LockedValue<Counts>

    /// A limit of `perSender` calls waiting per sender, refused with `errorName`.
    public init(perSender: Int, errorName: String) {
        self.perSender = perSender
        self.errorName = errorName
        self.counts = LockedValue(Counts(limit: perSender))
    }

    /// The message a refused call is answered with.
    public var message: String { "at most \(perSender) calls in flight per client; wait for an answer first" }

    /// Counts a call of `sender`'s; false when it has ``perSender`` waiting already.
    func admit(_ sender: String) -> Bool {
        counts.withLock { $0.admit(sender) }
    }

    /// A counted call of `sender`'s was answered.
    func finish(_ sender: String) {
        counts.withLock { $0.finish(sender) }
    }

    /// How many calls `sender` has waiting now.
    public func inFlight(for sender: String) -> Int {
        counts.withLock { $0.bySender[sender, default: 0] }
    }
}
