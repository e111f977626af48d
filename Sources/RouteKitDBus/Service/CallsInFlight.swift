import DBus
import Synchronization

/// How many calls to the API each client has waiting for their answer, so that one client
/// cannot queue unbounded work: past ``RouteKitLimits/maximumCallsInFlightPerClient`` a call
/// is refused at once. One lock, held only to count.
final class CallsInFlight: Sendable {
    /// The counts, by client; a client with none has no entry. Pure.
    struct Counts: Sendable {
        private(set) var byClient: [String: Int] = [:]
        let limit: Int

        /// Counts a new call of `client`'s; false (and nothing counted) when it has `limit` already.
        mutating func admit(_ client: String) -> Bool {
            let now = byClient[client, default: 0]
            guard now < limit else { return false }
            byClient[client] = now + 1
            return true
        }

        /// One of `client`'s calls was answered.
        mutating func finish(_ client: String) {
            guard let now = byClient[client] else { return }
            byClient[client] = now > 1 ? now - 1 : nil
        }
    }

    private let counts: Mutex<Counts>

    init(limit: Int = RouteKitLimits.maximumCallsInFlightPerClient) {
        counts = Mutex(Counts(limit: limit))
    }

    /// Counts `call` when its client has room, to be ended by ``finish(_:)`` once answered;
    /// otherwise answers it with `LimitExceeded` at once and returns false.
    func admit(_ call: BusMethodCall) -> Bool {
        guard counts.withLock({ $0.admit(call.sender ?? "") }) else {
            let limit = RouteKitLimits.maximumCallsInFlightPerClient
            call.fail(RouteKitLimits.exceeded("at most \(limit) calls in flight per client; wait for an answer first"))
            return false
        }
        return true
    }

    /// An admitted call was answered.
    func finish(_ call: BusMethodCall) {
        counts.withLock { $0.finish(call.sender ?? "") }
    }
}
