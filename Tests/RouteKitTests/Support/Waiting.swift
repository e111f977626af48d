import PulseAudio
import RouteKit
import TestSupport

/// Waits until the device list, after its next changes, satisfies `condition`.
func waitUntil(
    _ what: String, list: DeviceList, timeout: Duration = .seconds(15),
    _ condition: @escaping @Sendable ([AudioDevice]) -> Bool
) async throws {
    let changes = await list.changes()
    try await withTimeout(what, timeout) {
        if condition(await list.devices) { return }
        for await _ in changes {
            if condition(await list.devices) { return }
        }
        throw TimedOut(what: "\(what) (the change stream ended)")
    }
}
