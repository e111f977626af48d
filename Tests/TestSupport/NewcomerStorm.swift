import PulseAudio
import SoundServerSandbox

/// Clients connecting and leaving without pause, several at once: on PipeWire each one makes
/// pipewire-pulse bind WirePlumber's "default" metadata, and while any such bind waits for
/// WirePlumber's answer PipeWire passes a change of that metadata to the binding client alone
/// (Docs/Reliability.md, "The PipeWire default that never reaches long-lived connections").
/// A change made during the storm is likely to be missed by every connection that was there
/// before it.
public enum NewcomerStorm {
    /// Runs `body` with `lanes` loops of newcomers connecting to `server`, and stops them
    /// (awaiting their end) when it returns or throws. Returns how many connected.
    @discardableResult
    public static func during(_ server: SandboxServer, lanes: Int = 10,
                              _ body: @Sendable () async throws -> Void) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var connected = 0
                    while !Task.isCancelled {
                        let client = PulseClient(configuration: .init(server: server.serverAddress,
                                                                      applicationName: "routekit-newcomer-\(lane)",
                                                                      reconnectPolicy: .never))
                        if (try? await client.connect()) != nil { connected += 1 }
                        client.shutdown()
                    }
                    return connected
                }
            }
            do {
                try await body()
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            return try await group.reduce(0, +)
        }
    }
}
