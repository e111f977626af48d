import TestSupport
import PulseAudio
import RouteKit
import RouteKitTesting
import Testing

/// What virtual devices cannot show, on the simulated server: cards, ports, jacks, profiles.
@Suite("Device model on the simulated server")
struct SimulatedDeviceModelTests {
    private func startedList(_ server: SimulatedServer) async throws -> DeviceList {
        let list = DeviceList(server: server)
        try await list.start()
        return list
    }

    @Test("a laptop: speakers with the built-in mic, headphones with the headset mic, a jack plugged and unplugged")
    func laptopJack() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        let card = try server.addCard(.laptopAnalog(headphonesPlugged: false))
        let list = try await startedList(server)
        defer { Task { await list.stop() } }

        let speakerID = AudioDevice.ID(rawValue: "\(card.name)/analog-output-speaker")
        let headphonesID = AudioDevice.ID(rawValue: "\(card.name)/analog-output-headphones")
        let speaker = try #require(await list.device(speakerID))
        #expect(speaker.kind == .speakerphone)
        #expect(speaker.input?.port == "analog-input-internal-mic")
        #expect(speaker.isActive)
        let headphones = try #require(await list.device(headphonesID))
        #expect(headphones.kind == .wiredHeadset)
        #expect(headphones.availability == .unavailable)
        #expect(headphones.input?.port == "analog-input-headset-mic")
        #expect(!(await list.devices).contains { $0.output == nil }, "every input is paired")

        try server.setJack(card: card.name, jack: "Headphone", plugged: true)
        try await waitUntil("headphones available", list: list) { devices in
            devices.first { $0.id == headphonesID }?.availability == .available
        }
        try server.setJack(card: card.name, jack: "Headphone", plugged: false)
        try await waitUntil("headphones unavailable again", list: list) { devices in
            devices.first { $0.id == headphonesID }?.availability == .unavailable
        }
    }

    @Test("a Bluetooth headset in A2DP still lists its microphone, with the profile it needs")
    func bluetoothProfiles() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        let card = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        let list = try await startedList(server)
        defer { Task { await list.stop() } }

        let headset = try #require(await list.devices.first { $0.card == card.name })
        #expect(headset.kind == .bluetooth)
        #expect(headset.id.rawValue == "\(card.name)/headset-output")
        #expect(headset.output?.deviceName?.hasPrefix("bluez_sink.") == true)
        #expect(headset.requiredProfile == nil, "A2DP plays as it is")
        let microphone = try #require(headset.input)
        #expect(microphone.port == "headset-input")
        #expect(microphone.deviceName == nil, "no source while in A2DP")
        #expect(microphone.profile == "headset_head_unit")

        try await server.setCardProfile(card.name, profile: "headset_head_unit")
        try await waitUntil("the headset's microphone source", list: list) { devices in
            devices.first { $0.card == card.name }?.input?.deviceName?.hasPrefix("bluez_source.") == true
        }
    }

    @Test("a device keeps its id when its card goes and comes back")
    func stableIDAcrossReconnect() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        let card = try server.addCard(.usbHeadset())
        let list = try await startedList(server)
        defer { Task { await list.stop() } }
        let before = try #require(await list.devices.first { $0.card == card.name })
        #expect(before.kind == .wiredHeadset)

        try server.removeCard(named: card.name)
        try await waitUntil("the headset gone", list: list) { !$0.contains { $0.id == before.id } }
        _ = try server.addCard(.usbHeadset())
        try await waitUntil("the headset back", list: list) { $0.contains { $0.id == before.id } }
        let after = try #require(await list.device(before.id))
        #expect(after.kind == before.kind)
        #expect(after.description == before.description)
    }

    @Test("HDMI is external, and listed with the profile it needs when the card is elsewhere")
    func hdmi() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        let card = try server.addCard(.hdmi(connected: true))
        let list = try await startedList(server)
        defer { Task { await list.stop() } }
        let devices = await list.devices.filter { $0.card == card.name }
        #expect(!devices.isEmpty)
        #expect(devices.allSatisfy { $0.kind == .external })
    }

    @Test("the list built event by event equals the list built from scratch")
    func incrementalEqualsFull() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        let list = try await startedList(server)
        defer { Task { await list.stop() } }
        let laptop = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.bluetoothHeadset())
        _ = try server.addCard(.usbHeadset())
        try server.setJack(card: laptop.name, jack: "Headphone", plugged: true)
        try await waitUntil("everything", list: list) { devices in
            devices.contains { $0.kind == .bluetooth } && devices.contains { $0.card?.contains("usb") == true }
                && devices.contains { $0.id.rawValue.hasSuffix("analog-output-headphones") && $0.availability == .available }
        }
        let fresh = try await startedList(server)
        defer { Task { await fresh.stop() } }
        #expect(Set(await list.devices) == Set(await fresh.devices))
    }
}
