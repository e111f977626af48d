import ConcurrencySupport
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// A connection given up while it connects costs nobody else anything: on PipeWire 0.3.65 a
/// client that goes before WirePlumber has answered its bind of the "default" metadata stops
/// every later change of the default from reaching the connections already there, for good
/// (Docs/Reliability.md, "A miss for good"; `ConnectionCore+Settling.swift`).
@Suite("A connection given up while connecting")
struct GivenUpConnectionTests {
    @Test("on PipeWire, a connection given up while WirePlumber answers nothing costs the other connections no change of the default")
    func givenUpWhileWirePlumberIsFrozen() async throws {
        try await withSandbox(.pipewire) { server, listener, setter in
            _ = try await server.loadNullSink(name: "first_sink", properties: ["priority.session": "2000"])
            _ = try await server.loadNullSink(name: "second_sink", properties: ["priority.session": "1000"])
            try await setter.setDefaultSink("first_sink")
            try await waitUntil("first_sink the default", observer: listener) {
                try await listener.serverInfo().defaultSinkName == "first_sink"
            }

            // A reading given up at its deadline, as the engine gives up a check after 1 s,
            // while WirePlumber cannot answer the bind that pipewire-pulse makes for it.
            try server.freezeSessionManager()
            let configuration = PulseClient.Configuration(server: server.serverAddress, applicationName: "routekit-given-up",
                                                          reconnectPolicy: .never)
            let reading = await untilDeadline(.now + .milliseconds(500)) {
                try await PulseClient.withConnection(configuration) { try await $0.serverInfo() }
            }
            try server.thawSessionManager()
            #expect(reading == nil, "the connection was ready while WirePlumber was frozen")

            for target in ["second_sink", "first_sink", "second_sink"] {
                try await setter.setDefaultSink(target)
                try await waitUntil("the listener, connected before, to see \(target)", observer: listener, timeout: .seconds(5)) {
                    try await listener.serverInfo().defaultSinkName == target
                }
            }
        }
    }
}
