import PulseAudio
import RouteKit
import Testing

/// Sinks and sources listed without their card: each port is a device, as a card's would be.
@Suite("Devices without a card")
struct CardlessDeviceTests {
    private func port(_ name: String, _ description: String, _ type: DevicePortType = .unknown,
                      _ availability: PortAvailability = .unknown) -> DevicePort {
        DevicePort(name: name, description: description, priority: 0, availability: availability, type: type,
                   availabilityGroup: nil)
    }

    private let laptop = ["device.bus": "pci", "device.api": "alsa", "device.form_factor": "internal",
                          "device.bus_path": "pci-0000:06:00.6"]

    private func sink(_ name: String, _ ports: [DevicePort], active: String?, _ properties: [String: String]) -> SinkInfo {
        SinkInfo(index: 1, name: name, description: "Analog Stereo", driver: "PipeWire", ownerModule: nil, card: nil,
                 isMuted: false, volume: ChannelVolumes([]), baseVolume: 0, monitorSourceName: nil, state: .running,
                 ports: ports, activePortName: active, properties: properties)
    }

    private func source(_ name: String, _ ports: [DevicePort], active: String?, _ properties: [String: String]) -> SourceInfo {
        SourceInfo(index: 2, name: name, description: "Analog Stereo", driver: "PipeWire", ownerModule: nil, card: nil,
                   isMuted: false, volume: ChannelVolumes([]), baseVolume: 0, monitorOfSinkName: nil, state: .running,
                   ports: ports, activePortName: active, properties: properties)
    }

    @Test("a sink with several ports lists each, not only the active one")
    func everyPort() {
        let sink = sink("alsa_output.x", [port("analog-output-speaker", "Speakers", .speaker),
                                          port("analog-output-headphones", "Headphones", .headphones, .unavailable)],
                        active: "analog-output-speaker", laptop)
        let devices = DeviceModel.cardless(sinks: [sink], sources: [])
        #expect(devices.map(\.output?.port) == ["analog-output-speaker", "analog-output-headphones"])
        #expect(devices.map(\.kind) == [.speakerphone, .wiredHeadset])
        #expect(devices.map(\.id.rawValue) == ["alsa_output.x/analog-output-speaker", "alsa_output.x/analog-output-headphones"])
        #expect(devices[1].availability == .unavailable)
    }

    @Test("a sink listed twice (two captures in one paste) is one device per port, from its last listing")
    func listedTwice() {
        let first = sink("alsa_output.x", [port("analog-output-lineout", "Line Out", .line, .available),
                                           port("analog-output-headphones", "Headphones", .headphones)],
                         active: "analog-output-headphones", laptop)
        var second = first
        second.ports[1].availability = .available
        let devices = DeviceModel.devices(cards: [], sinks: [first, second], sources: [],
                                          defaultSinkName: "alsa_output.x", defaultSourceName: nil)
        #expect(devices.map(\.id.rawValue) == ["alsa_output.x/analog-output-lineout", "alsa_output.x/analog-output-headphones"])
        #expect(devices[1].availability == .available)
        #expect(devices.filter(\.isActive).count == 1)
    }

    @Test("a sink with one port keeps its name as its id")
    func onePort() {
        let sink = sink("alsa_output.usb", [port("analog-output", "Analog Output")], active: "analog-output",
                        ["device.bus": "usb", "device.form_factor": "headset"])
        #expect(DeviceModel.cardless(sinks: [sink], sources: []).map(\.id.rawValue) == ["alsa_output.usb"])
    }

    @Test("each output port takes the input port of its kind on the same hardware")
    func pairing() {
        let sink = sink("alsa_output.x", [port("analog-output-speaker", "Speakers", .speaker),
                                          port("analog-output-headphones", "Headphones", .headphones, .unavailable)],
                        active: "analog-output-speaker", laptop)
        let source = source("alsa_input.x", [port("analog-input-internal-mic", "Internal Microphone", .mic),
                                             port("analog-input-mic", "Microphone", .mic, .unavailable)],
                            active: "analog-input-internal-mic", laptop)
        let devices = DeviceModel.cardless(sinks: [sink], sources: [source])
        #expect(devices.count == 2, "every input port found its output")
        #expect(devices.first { $0.kind == .speakerphone }?.input?.port == "analog-input-internal-mic")
        #expect(devices.first { $0.kind == .wiredHeadset }?.input?.port == "analog-input-mic")
    }

    @Test("the active port of the default sink is the active device")
    func active() {
        let sink = sink("alsa_output.x", [port("analog-output-speaker", "Speakers", .speaker),
                                          port("analog-output-headphones", "Headphones", .headphones)],
                        active: "analog-output-headphones", laptop)
        let devices = DeviceModel.devices(cards: [], sinks: [sink], sources: [], defaultSinkName: "alsa_output.x",
                                          defaultSourceName: nil)
        #expect(devices.filter(\.isActive).map(\.output?.port) == ["analog-output-headphones"])
    }
}

/// Cards that offer nothing to route to.
@Suite("Cards without a usable profile")
struct UnusableCardTests {
    @Test("a card whose only profile is off is no device; one pasted without profiles still is")
    func offOnly() {
        let off = CardInfo.Profile(name: "off", description: "Off", sinkCount: 0, sourceCount: 0, priority: 0, isAvailable: true)
        let card = CardInfo(index: 44, name: "alsa_card.pci-0000_01_00.1", driver: "alsa", ownerModule: nil, profiles: [off],
                            activeProfileName: "off", ports: [], properties: ["device.bus": "pci", "device.api": "alsa"])
        #expect(DeviceModel.devices(card: card, sinks: [], sources: []).isEmpty)
        var pasted = card
        pasted.profiles = []
        #expect(DeviceModel.devices(card: pasted, sinks: [], sources: []).count == 1)
        // Nor is such a card a microphone: no profile of it offers a source.
        #expect(DeviceClassifier.classify(ClassificationEvidence(card: card)) == .external)
    }
}
