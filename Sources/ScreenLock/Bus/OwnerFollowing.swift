import DBus

/// Follows who owns a well-known name, running `attach` for each owner while it owns it.
///
/// `attach(owner)` runs in a child task from the moment the name has that owner until the
/// owner changes (it is then cancelled and awaited) or `changes` ends (the connection ended,
/// or the caller was cancelled). When an owner goes, and only after its `attach` has ended,
/// `vanished` is called, so that nothing `attach` reported can come after it; when `changes`
/// ends it is not (the caller decides what its own end means).
///
/// - Parameters:
///   - changes: the name's `NameOwnerChanged` signals, subscribed before `initialOwner` was asked
///     for, so that no change between the two is lost.
///   - initialOwner: who owned the name when it was asked, after subscribing.
func followOwner(
    of name: String, changes: AsyncStream<BusSignalMessage>, startingWith initialOwner: String?,
    attach: @escaping @Sendable (String) async -> Void, vanished: () -> Void
) async {
    var signals = changes.makeAsyncIterator()
    var current = initialOwner
    while true {
        let next: String?? = await withTaskGroup(of: Void.self) { group in
            if let owner = current { group.addTask { await attach(owner) } }
            defer { group.cancelAll() }
            while let signal = await signals.next() {
                guard let change = NameOwnerChange(signal), change.name == name, change.newOwner != current else { continue }
                return .some(change.newOwner)
            }
            return .none
        }
        guard case .some(let owner) = next else { return }
        if current != nil { vanished() }
        current = owner
    }
}
