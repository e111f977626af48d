import TestSupport
import PulseAudio
import SoundServerSandbox
import Testing

@Suite("Introspection on real servers")
struct IntrospectionTests {
    @Test("server info tells PulseAudio from PipeWire", arguments: SoundServerKind.allCases)
    func serverInfo(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            let info = try await client.serverInfo()
            // What the installed server program says of itself: any release, not one assumed.
            let installed = try await server.serverVersion()
            switch kind {
            case .pulseaudio:
                #expect(info.implementation == .pulseaudio)
                #expect(info.serverVersion == installed)
                #expect(info.pipeWireVersion == nil)
            case .pipewire:
                #expect(info.implementation == .pipewire)
                #expect(info.pipeWireVersion == installed)
            }
        }
    }

    @Test("sinks and sources come with their properties", arguments: SoundServerKind.allCases)
    func sinksAndSources(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            _ = try await server.loadNullSink(name: "bt_headset", properties: bluetoothHeadset)
            _ = try await server.loadNullSink(name: "speaker", properties: internalSpeaker)
            _ = try await listedSink("bt_headset", by: client)
            _ = try await listedSink("speaker", by: client)

            let sinks = try await client.sinks()
            let headset = try #require(sinks.first { $0.name == "bt_headset" })
            #expect(headset.description == "Test BT Headset")
            #expect(headset.properties["device.bus"] == "bluetooth")
            #expect(headset.properties["device.form_factor"] == "headset")
            #expect(headset.volume.values.count == 2)
            let speaker = try #require(sinks.first { $0.name == "speaker" })
            #expect(speaker.properties["device.form_factor"] == "internal")

            let sources = try await client.sources()
            let monitor = try #require(sources.first { $0.name == "bt_headset.monitor" })
            #expect(monitor.isMonitor)
            #expect(monitor.monitorOfSinkName == "bt_headset" || kind == .pipewire)

            #expect(try await client.sink(named: "bt_headset")?.index == headset.index)
            #expect(try await client.sink(at: headset.index)?.name == "bt_headset")
            #expect(try await client.sink(named: "no_such_sink") == nil)
            #expect(try await client.source(named: "bt_headset.monitor")?.index == monitor.index)
            #expect(try await client.source(at: monitor.index)?.name == "bt_headset.monitor")
        }
    }

    @Test("streams, clients, modules and cards are listed", arguments: SoundServerKind.allCases)
    func streamsClientsModules(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, observer in
            let module = try await server.loadNullSink(name: "speaker", properties: internalSpeaker)
            let player = try await StreamProcess(on: server, .playback, device: "speaker", properties: ["media.role": "music"])
            defer { player.stop() }
            let recorder = try await StreamProcess(on: server, .record, device: "speaker.monitor")
            defer { recorder.stop() }
            // Both streams there and linked, as the connection under test sees them:
            // pipewire-pulse lists a stream before WirePlumber has linked it (its sink or source
            // is PA_INVALID_INDEX until then), and keeps a view of the graph per client.
            try await waitUntil("both pacat streams, linked", observer: client) {
                let inputs = try await client.sinkInputs()
                let outputs = try await client.sourceOutputs()
                return inputs.contains { $0.properties["media.role"] == "music" && $0.sink != UInt32.max }
                    && outputs.contains { $0.properties["application.process.id"] == "\(recorder.processID)" && $0.source != UInt32.max }
            }

            let speakerIndex = try #require(try await client.sink(named: "speaker")?.index)
            let stream = try #require(try await client.sinkInputs().first { $0.properties["media.role"] == "music" })
            #expect(stream.sink == speakerIndex)
            #expect(stream.properties["application.process.id"] == "\(player.processID)")
            #expect(try await client.sinkInput(at: stream.index)?.index == stream.index)
            let recording = try #require(try await client.sourceOutputs().first {
                $0.properties["application.process.id"] == "\(recorder.processID)"
            })
            #expect(try await client.sourceOutput(at: recording.index)?.source == recording.source)

            let clients = try await client.clients()
            #expect(clients.contains { $0.properties["application.name"] == "routekit-test" })
            #expect(clients.contains { $0.properties["application.name"] == "routekit-observer" })

            let modules = try await client.modules()
            #expect(modules.contains { $0.index == module && $0.name == "module-null-sink" })

            // Null sinks bring no card; the call still has to answer.
            #expect(try await client.cards().allSatisfy { !$0.name.isEmpty })
            #expect(try await client.card(named: "no_such_card") == nil)
        }
    }
}
