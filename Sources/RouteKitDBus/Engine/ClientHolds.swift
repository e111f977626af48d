import ConcurrencySupport
import Synchronization

/// What clients hold through the D-Bus API besides their calls (which the engine keeps by
/// origin): volume capture, on while any client holds it. One lock, held only to change the set.
final class ClientHolds: Sendable {
    private let captureHolders = LockedValue<Set<String>>([])
    private let callNumbers = Atomic<Int>(0)

    init() {}

    /// `client` takes (true) or lets go of (false) volume capture; returns whether capture must
    /// change: on for the first holder, off when the last lets go.
    func holdCapture(_ isOn: Bool, by client: String) -> Bool {
        captureHolders.withLock { holders in
            let wasHeld = !holders.isEmpty
            if isOn { holders.insert(client) } else { holders.remove(client) }
            return wasHeld != !holders.isEmpty
        }
    }

    /// `client` went: nil when it held no capture, else whether capture must go off now.
    func release(_ client: String) -> Bool? {
        captureHolders.withLock { holders in
            guard holders.remove(client) != nil else { return nil }
            return holders.isEmpty
        }
    }

    /// A new call id for a client that gave none: `bus-1`, `bus-2`, …
    func newCallID() -> String {
        "bus-\(callNumbers.add(1, ordering: .relaxed).newValue)"
    }
}
