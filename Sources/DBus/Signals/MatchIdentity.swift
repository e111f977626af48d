import ConcurrencySupport

/// The id of a match's slot on the loop, once it is added, for the stream's end to remove it.
final class MatchIdentity: Sendable {
    private let id = LockedValue<UInt64?>(nil)
    func set(_ value: UInt64) { id.withLock { $0 = value } }
    func take() -> UInt64? { id.withLock { value in defer { value = nil }; return value } }
}
