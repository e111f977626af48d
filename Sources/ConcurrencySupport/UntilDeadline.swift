/// Runs `body` until `deadline`, in a child task that is cancelled when the deadline comes
/// first (a server's request then ends at once); nil when it throws or the deadline passes.
/// For requests a stop must not wait on beyond its bound: a frozen server (SIGSTOP) keeps
/// its socket open and answers nothing.
package func untilDeadline<Value: Sendable>(_ deadline: ContinuousClock.Instant,
                                           _ body: @escaping @Sendable () async throws -> Value) async -> Value? {
    guard ContinuousClock.now < deadline else { return nil }
    return await withTaskGroup(of: Value?.self) { group in
        group.addTask { try? await body() }
        group.addTask {
            try? await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
