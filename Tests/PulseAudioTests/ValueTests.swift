@testable import PulseAudio
import CPulseAudio
import Testing

@Suite("Values")
struct ValueTests {
    @Test("volumes convert to libpulse and back")
    func volumes() throws {
        let volume = ChannelVolumes(channelCount: 2, percent: 50)
        #expect(volume.values == [32768, 32768])
        #expect(volume.description == "50% 50%")
        let cValue = try #require(volume.cValue())
        #expect(ChannelVolumes(cValue) == volume)
        #expect(ChannelVolumes([]).cValue() == nil)
        #expect(ChannelVolumes(channelCount: 33, volume: 1).cValue() == nil)
        #expect(ChannelVolumes([PA_VOLUME_MAX + 1]).cValue() == nil)
    }

    @Test("reconnect delays double up to the maximum")
    func backoff() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .seconds(2))
        #expect((1...8).map { policy.delay(beforeAttempt: $0) } == [
            .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400),
            .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2),
        ])
    }

    @Test("server names tell PulseAudio from PipeWire")
    func implementation() {
        func info(_ name: String) -> ServerInfo {
            ServerInfo(serverName: name, serverVersion: "15.0.0", userName: "u", hostName: "h",
                       defaultSinkName: nil, defaultSourceName: nil, cookie: 0)
        }
        #expect(info("pulseaudio").implementation == .pulseaudio)
        #expect(info("PulseAudio (on PipeWire 1.0.5)").implementation == .pipewire)
        #expect(info("PulseAudio (on PipeWire 1.0.5)").pipeWireVersion == "1.0.5")
        #expect(info("something else").implementation == .other)
    }

    @Test("subscription event types decode")
    func subscriptionEvents() {
        let event = SubscriptionEvent(
            type: pa_subscription_event_type_t(PA_SUBSCRIPTION_EVENT_CARD.rawValue | PA_SUBSCRIPTION_EVENT_REMOVE.rawValue),
            index: 7)
        #expect(event == SubscriptionEvent(facility: .card, kind: .remove, index: 7))
        #expect(event.description == "Event 'remove' on card #7")
        let server = SubscriptionEvent(
            type: pa_subscription_event_type_t(PA_SUBSCRIPTION_EVENT_SERVER.rawValue | PA_SUBSCRIPTION_EVENT_CHANGE.rawValue),
            index: 0)
        #expect(server.facility == .server && server.kind == .change)
    }

    @Test("socket paths become unix: server strings")
    func serverStrings() {
        #expect(PulseClient.serverString("/tmp/x/native") == "unix:/tmp/x/native")
        #expect(PulseClient.serverString("tcp:localhost:4713") == "tcp:localhost:4713")
        #expect(PulseClient.serverString("") == nil)
        #expect(PulseClient.serverString(nil) == nil)
    }
}
