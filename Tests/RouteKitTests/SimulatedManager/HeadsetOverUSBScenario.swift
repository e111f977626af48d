import Logging
import RouteKit
import RouteKitTesting

/// The laptop's speaker, a USB headset and the preferred Bluetooth headset on a simulated
/// server, with a manager preferring Bluetooth, then the speaker: when the Bluetooth headset
/// goes, the server itself would fall back on the USB headset, and only the manager asks
/// for the speaker.
enum HeadsetOverUSBScenario {
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let speaker = AudioDevice.ID(rawValue: "alsa_card.pci-0000_00_1f.3/analog-output-speaker")
    static let headsetCard = "bluez_card.00_1B_66_AA_BB_CC"
    static let headsetID = AudioDevice.ID(rawValue: "bluez_card.00_1B_66_AA_BB_CC/headset-output")

    /// The simulated server with the three cards.
    static func server() throws -> SimulatedServer {
        let simulated = SimulatedServer()
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.usbHeadset())
        _ = try simulated.addCard(.bluetoothHeadset())
        return simulated
    }

    /// A manager over `server`, started, with its events recorded from before the start, once
    /// it has routed to the Bluetooth headset.
    static func startedOnHeadset(_ server: some AudioServer, logger: Logger) async throws -> (AudioDeviceManager, EventLog) {
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: logger)
        let log = await EventLog.recording(manager)
        try await manager.start()
        _ = try await log.waitForRoute(to: headsetID)
        return (manager, log)
    }
}
