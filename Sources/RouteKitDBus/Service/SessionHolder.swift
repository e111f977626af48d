import ConcurrencySupport

/// The session being served, shared between the serving loop and the service's clean-up.
final class SessionHolder: Sendable {
    private let session: LockedValue<BusSession?>
    init(_ session: BusSession?) { self.session = LockedValue(session) }
    var current: BusSession? { session.withLock { $0 } }
    func set(_ new: BusSession) { session.withLock { $0 = new } }
    func take() -> BusSession? { session.withLock { value in defer { value = nil }; return value } }
}
