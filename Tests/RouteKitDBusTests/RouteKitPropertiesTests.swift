import DBus
import PulseAudio
import RouteKit
import RouteKitDBus
import Testing

/// RouteKit1's properties and records as functions of the engine's state.
@Suite("RouteKit1 properties")
struct RouteKitPropertiesTests {
    @Test("every declared property has a value, of its declared type")
    func complete() {
        let values = RouteKitProperties.status(Devices.state(route: Devices.headset), microphoneMuted: true)
        for property in RouteKitProperties.all {
            #expect(values[property.name]?.signature == property.signature, "\(property.name)")
        }
        #expect(values.count == RouteKitProperties.all.count)
    }

    @Test("the route, its endpoints, the call, the speaker and the microphone")
    func values() {
        let state = Devices.state(route: Devices.speaker, selection: "speaker", call: true,
                                  preferences: [.kind(.bluetooth), .device("speaker")])
        let values = RouteKitProperties.status(state, microphoneMuted: true)
        #expect(values["Route"] == .string("speaker"))
        #expect(values["RouteDescription"] == .string("SPEAKER"))
        #expect(values["RouteKind"] == .string("speakerphone"))
        #expect(values["OutputSink"] == .string("speaker"))
        #expect(values["InputSource"] == .string("speaker_mic"))
        #expect(values["Preferences"] == .strings(["bluetooth", "speaker"]))
        #expect(values["Selection"] == .string("speaker"))
        #expect(values["CallAudio"] == .boolean(true))
        #expect(values["Speaker"] == .boolean(true))
        #expect(values["MicMuted"] == .boolean(true))
        #expect(values["Connected"] == .boolean(true))
    }

    @Test("without a server connection no route is named")
    func disconnected() {
        let values = RouteKitProperties.values(for: Devices.state(route: Devices.speaker, connection: Devices.reconnecting))
        #expect(values["Route"] == .string(""))
        #expect(values["Speaker"] == .boolean(false))
        #expect(values["Connected"] == .boolean(false))
        #expect(values["Connection"] == .string("reconnecting"))
    }

    @Test("Connection names each state with its stable name, and Connected is true only when ready")
    func connection() {
        let lost = PulseError(.connectionRefused, operation: "connect")
        let names: [(ConnectionState, String)] = [
            (.idle, "idle"), (.connecting, "connecting"), (.ready, "ready"),
            (.reconnecting(attempt: 3, lastError: lost), "reconnecting"), (.failed(lost), "failed"), (.shutDown, "shutdown"),
        ]
        for (state, name) in names {
            let values = RouteKitProperties.values(for: Devices.state(route: Devices.speaker, connection: state))
            #expect(values["Connection"] == .string(name), "\(state)")
            #expect(values["Connected"] == .boolean(state == .ready), "\(state)")
            #expect(values["Route"] == .string(state == .ready ? "speaker" : ""), "\(state)")
        }
    }

    @Test("Status is an a{sv} in the properties' order; a device record carries its fields")
    func records() throws {
        let status = RouteKitProperties.statusRecord(Devices.state(route: Devices.headset), microphoneMuted: nil)
        #expect(status.signature == "a{sv}")
        guard case .dictionary(_, _, let entries) = status else {
            Issue.record("not a dictionary: \(status)")
            return
        }
        #expect(entries.map { $0.key.stringValue ?? "" } == RouteKitProperties.all.map(\.name))
        let record = DeviceRecord.record(Devices.unplugged).variantDictionaryValue
        #expect(record?["id"] == .string("jack"))
        #expect(record?["kind"] == .string("wiredHeadset"))
        #expect(record?["availability"] == .string("unavailable"))
        #expect(record?["output_sink"] == .string("jack"))
        #expect(record?["input_source"] == .string("jack_mic"))
        #expect(DeviceRecord.list([]).signature == "aa{sv}")
    }
}
