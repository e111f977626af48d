import TestSupport
import PulseAudio
import SoundServerSandbox
import Testing

@Suite("Subscription events on real servers")
struct EventTests {
    @Test("a plug and an unplug arrive as sink new and remove events", arguments: SoundServerKind.allCases)
    func plugAndUnplug(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            let events = client.events()
            let module = try await server.loadNullSink(name: "bt_headset", properties: bluetoothHeadset)
            let sink = try await listedSink("bt_headset", by: client)

            let plugged = try await firstEvent("the sink's new event", in: events) {
                $0 == .subscription(SubscriptionEvent(facility: .sink, kind: .new, index: sink.index))
            }
            #expect(plugged == .subscription(SubscriptionEvent(facility: .sink, kind: .new, index: sink.index)))

            try await server.unloadModule(module)
            _ = try await firstEvent("the sink's remove event", in: events) {
                $0 == .subscription(SubscriptionEvent(facility: .sink, kind: .remove, index: sink.index))
            }
            #expect(try await client.sink(named: "bt_headset") == nil)
        }
    }

    @Test("every stream gets every event, and a stream that is dropped leaves", arguments: SoundServerKind.allCases)
    func independentStreams(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, _ in
            let first = client.events()
            let second = client.events()
            _ = try await server.loadNullSink(name: "speaker", properties: internalSpeaker)
            let index = try await listedSink("speaker", by: client).index
            let expected = PulseEvent.subscription(SubscriptionEvent(facility: .sink, kind: .new, index: index))
            _ = try await firstEvent("the first stream's event", in: first) { $0 == expected }
            _ = try await firstEvent("the second stream's event", in: second) { $0 == expected }
        }
    }

    @Test("shutdown finishes every event stream", arguments: SoundServerKind.allCases)
    func shutdownFinishesStreams(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { _, client, _ in
            let events = client.events()
            client.shutdown()
            let ended = try await withTimeout("the stream to finish") {
                var last: PulseEvent?
                for await event in events { last = event }
                return last
            }
            #expect(ended == .connectionStateChanged(.shutDown))
        }
    }
}
