import PulseAudio
import TestSupport
import SoundServerSandbox
import Testing

@Suite("Subscription masks on real servers")
struct SubscriptionMaskTests {
    @Test("a client narrowed to devices hears no module or client events; an unnarrowed one does",
          arguments: SoundServerKind.allCases)
    func narrowedToDevices(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, everything, _ in
            try await PulseClient.withConnection(configuration(server, .devices)) { narrowed in
                let narrowedEvents = narrowed.events()
                let allEvents = everything.events()
                // pactl connects (a client event), loads a module (a module event), which adds a sink.
                _ = try await server.loadNullSink(name: "probe", properties: internalSpeaker)
                _ = try await firstEvent("a module event on the unnarrowed client", in: allEvents) {
                    if case .subscription(let event) = $0 { event.facility == .module } else { false }
                }
                _ = try await firstEvent("a client event on the unnarrowed client", in: allEvents) {
                    if case .subscription(let event) = $0 { event.facility == .client } else { false }
                }
                let heard = try await heardUpToMarker(narrowedEvents, server, narrowed)
                let outside = heard.filter { ![.sink, .source, .card, .server].contains($0.facility) }
                #expect(outside.isEmpty, "events outside the mask: \(outside)")
                #expect(heard.contains { $0.facility == .sink && $0.kind == .new })
            }
        }
    }

    @Test("streams are heard when asked for, and not otherwise", arguments: SoundServerKind.allCases)
    func streamsWhenAsked(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, _, _ in
            _ = try await server.loadNullSink(name: "speaker", properties: internalSpeaker)
            try await PulseClient.withConnection(configuration(server, .devices)) { devicesOnly in
                try await PulseClient.withConnection(configuration(server, [.devices, .streams])) { withStreams in
                    let devicesOnlyEvents = devicesOnly.events()
                    let withStreamsEvents = withStreams.events()
                    let stream = try await StreamProcess(on: server, .playback, device: "speaker")
                    defer { stream.stop() }
                    _ = try await firstEvent("the playback stream's event", in: withStreamsEvents) {
                        if case .subscription(let event) = $0 { event.facility == .sinkInput && event.kind == .new } else { false }
                    }
                    let heard = try await heardUpToMarker(devicesOnlyEvents, server, devicesOnly)
                    let streams = heard.filter { $0.facility == .sinkInput || $0.facility == .sourceOutput }
                    #expect(streams.isEmpty, "stream events without .streams: \(streams)")
                }
            }
        }
    }

    /// A configuration for `server` with `subscription`.
    private func configuration(_ server: SandboxServer, _ subscription: SubscriptionMask) -> PulseClient.Configuration {
        PulseClient.Configuration(server: server.serverAddress, applicationName: "routekit-narrowed",
                                  subscription: subscription)
    }

    /// The events `client` heard up to a marker sink loaded now: everything the server sent it
    /// before, since a server delivers a client's events in order.
    private func heardUpToMarker(
        _ events: AsyncStream<PulseEvent>, _ server: SandboxServer, _ client: PulseClient
    ) async throws -> [SubscriptionEvent] {
        _ = try await server.loadNullSink(name: "marker", properties: internalSpeaker)
        let marker = try await listedSink("marker", by: client)
        return try await collectEvents("the events up to the marker", from: events) {
            $0 == SubscriptionEvent(facility: .sink, kind: .new, index: marker.index)
        }
    }
}
