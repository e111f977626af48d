import PulseAudio
import TestSupport
import SoundServerSandbox
import Testing

@Suite("Subscription masks on real servers")
struct SubscriptionMaskTests {
    /// The facilities a ``SubscriptionMask/devices`` client may hear.
    private static let deviceFacilities: Set<SubscriptionEvent.Facility> = [.sink, .source, .card, .server]

    @Test("a client narrowed to devices hears no module or client events; an unnarrowed one does",
          arguments: SoundServerKind.allCases)
    func narrowedToDevices(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, everything, _ in
            let configuration = PulseClient.Configuration(server: server.serverAddress, applicationName: "routekit-narrowed",
                                                          subscription: .devices)
            try await PulseClient.withConnection(configuration) { narrowed in
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
                // The server has sent both by now; a later sink event closes what the narrowed
                // client could have received before it.
                _ = try await server.loadNullSink(name: "marker", properties: internalSpeaker)
                let marker = try #require(try await narrowed.sink(named: "marker"))
                let heard = try await collectEvents("the narrowed client's events up to the marker",
                                                    from: narrowedEvents) {
                    $0 == SubscriptionEvent(facility: .sink, kind: .new, index: marker.index)
                }
                let outside = heard.filter { !Self.deviceFacilities.contains($0.facility) }
                #expect(outside.isEmpty, "events outside the mask: \(outside)")
                #expect(heard.contains { $0.facility == .sink && $0.kind == .new })
            }
        }
    }
}
