/// Waits on a device list's changes: `check` runs once at once (with nil), then after each
/// change, until it gives an outcome. Nil when `timeout` passes first or the changes end.
/// `changes` must be subscribed before the request whose effect is awaited.
func waitOnDeviceList<Outcome: Sendable>(_ changes: AsyncStream<DeviceList.Change>, timeout: Duration,
                                         _ check: @escaping @Sendable (DeviceList.Change?) async -> Outcome?) async -> Outcome? {
    await withTaskGroup(of: Outcome?.self) { group in
        group.addTask {
            if let outcome = await check(nil) { return outcome }
            for await change in changes {
                if let outcome = await check(change) { return outcome }
            }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
