import PulseAudio
import RouteKit
import TestSupport

/// Waits until the device list, after its next changes, satisfies `condition`.
///
/// With `renewing`, the list's connection is renewed once a second while it waits
/// (``whileRenewing(_:every:_:)``): on PipeWire a change of the default made while another
/// client connects (here, the `pactl` that plugs a device) never reaches the connections
/// already there (Docs/Reliability.md). A renewal reads the defaults afresh, and the list
/// takes them from the server change event that follows it, as it would any other.
func waitUntil(
    _ what: String, list: DeviceList, renewing client: PulseClient? = nil, timeout: Duration = .seconds(15),
    _ condition: @escaping @Sendable ([AudioDevice]) -> Bool
) async throws {
    let changes = await list.changes()
    let wait: @Sendable () async throws -> Void = {
        if condition(await list.devices) { return }
        for await _ in changes {
            if condition(await list.devices) { return }
        }
        throw TimedOut(what: "\(what) (the change stream ended)")
    }
    try await withTimeout(what, timeout) {
        if let client { try await whileRenewing(client, wait) } else { try await wait() }
    }
}
