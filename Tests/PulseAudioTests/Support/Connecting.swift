import PulseAudio
import SoundServerSandbox

/// Starts a sandbox server of `kind`, connects a client under test and an independent
/// observer client to it, runs `body`, and tears everything down whatever happens.
func withSandbox<Result: Sendable>(
    _ kind: SoundServerKind,
    reconnect: ReconnectPolicy = .standard,
    _ body: @Sendable (SandboxServer, PulseClient, PulseClient) async throws -> Result
) async throws -> Result {
    try await SandboxServer.withServer(kind) { server in
        let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-test",
                                                      reconnectPolicy: reconnect))
        let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-observer",
                                                        reconnectPolicy: reconnect))
        defer {
            client.shutdown()
            observer.shutdown()
        }
        try await client.connect()
        try await observer.connect()
        return try await body(server, client, observer)
    }
}

/// Properties that make a null sink look like a Bluetooth headset (the project's convention).
let bluetoothHeadset = ["device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Test BT Headset"]
/// Properties that make a null sink look like a built-in speaker.
let internalSpeaker = ["device.form_factor": "internal", "device.description": "Test Speaker"]
