import PulseAudio
import RouteKitTesting

/// The hardware the scripted tests use.
enum Fixtures {
    static let laptop = CardBlueprint.laptopAnalog()
    static let headset = CardBlueprint.bluetoothHeadset(address: "00:1B:66:AA:BB:CC", name: "WH-1000XM4")
    static let usb = CardBlueprint.usbHeadset()
    static let hdmi = CardBlueprint.hdmi()

    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let laptopSource = "alsa_input.pci-0000_00_1f.3.analog-stereo"
    static let a2dpSink = "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink"
    static let headsetSink = "bluez_sink.00_1B_66_AA_BB_CC.headset_head_unit"
    static let headsetSource = "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit"
    static let hdmiSink = "alsa_output.pci-0000_01_00.1.hdmi-stereo"
}

/// Shorthands for expected events.
extension SubscriptionEvent {
    static func new(_ facility: Facility, _ index: UInt32) -> SubscriptionEvent {
        .init(facility: facility, kind: .new, index: index)
    }
    static func change(_ facility: Facility, _ index: UInt32) -> SubscriptionEvent {
        .init(facility: facility, kind: .change, index: index)
    }
    static func remove(_ facility: Facility, _ index: UInt32) -> SubscriptionEvent {
        .init(facility: facility, kind: .remove, index: index)
    }
    static let serverChange = SubscriptionEvent(facility: .server, kind: .change, index: UInt32.max)
}

extension SimulatedServer {
    /// The index of the sink called `name`, failing the test when there is none.
    func sinkIndex(_ name: String) async throws -> UInt32 {
        guard let sink = try await sink(named: name) else { throw SimulationError("no sink \(name)") }
        return sink.index
    }

    /// The index of the source called `name`, failing the test when there is none.
    func sourceIndex(_ name: String) async throws -> UInt32 {
        guard let source = try await source(named: name) else { throw SimulationError("no source \(name)") }
        return source.index
    }
}
