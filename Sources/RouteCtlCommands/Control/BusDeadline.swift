import ConcurrencySupport
import DBus

/// A bound on a D-Bus call that sd-bus alone does not give: a call made while the
/// connection is still authenticating waits for sd-bus's own 90 s authentication timeout,
/// whatever the call's timeout says. Past the deadline the call is cancelled (its pending
/// reply is dropped) and it fails with `org.freedesktop.DBus.Error.NoReply`.
enum BusDeadline {
    /// `body`'s result, or `NoReply` once `timeout` has passed.
    static func within<Result: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> Result)
        async throws -> Result {
        switch try await withDeadline(.now + timeout, body) {
        case .finished(let result):
            return result
        case .deadlinePassed:
            throw BusError(name: BusError.noReplyName, message: "no answer within \(timeout.components.seconds) s")
        }
    }
}
