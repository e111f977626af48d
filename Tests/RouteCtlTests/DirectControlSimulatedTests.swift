import Foundation
import PulseAudio
@testable import RouteCtlCommands
import RouteKit
import RouteKitTesting
import Testing

extension SimulatedServer: SourceMutingServer {}

/// routectl's commands without a daemon, on the simulated server, where a Bluetooth headset
/// has the card profiles that null sinks lack: call audio moves it to HSP and back.
@Suite("Direct control on the simulated server")
struct DirectControlSimulatedTests {
    static let card = "bluez_card.00_1B_66_AA_BB_CC"
    static let a2dpSink = "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink"
    static let hspSink = "bluez_sink.00_1B_66_AA_BB_CC.headset_head_unit"
    static let hspSource = "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit"
    static let laptopSource = "alsa_input.pci-0000_00_1f.3.analog-stereo"

    /// A laptop and a Bluetooth headset in A2DP, audio on the headset; a fresh runtime
    /// directory for the call record.
    func withRig(_ body: (SimulatedServer, DirectRoutingControl) async throws -> Void) async throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("routectl-runtime-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
        try await server.setDefaultSink(Self.a2dpSink)
        try await server.setDefaultSource(Self.laptopSource)
        let control = DirectRoutingControl(server: server,
                                           callRecords: CallRecordStore.standard(server: "simulated", environment: ["XDG_RUNTIME_DIR": runtime]))
        try await body(server, control)
    }

    @Test func callAudioMovesTheHeadsetToItsHeadsetProfileAndEndingItPutsA2DPAndTheInputBack() async throws {
        try await withRig { server, control in
            #expect(try await control.setCallAudio(true))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "headset_head_unit")
            let during = try await server.serverInfo()
            #expect(during.defaultSinkName == Self.hspSink)
            #expect(during.defaultSourceName == Self.hspSource, "the headset's microphone is the input")
            #expect(try await control.status().isCallAudioOn)
            #expect(try await control.setCallAudio(true) == false, "already on")

            #expect(try await control.setCallAudio(false))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "a2dp_sink")
            let after = try await server.serverInfo()
            #expect(after.defaultSinkName == Self.a2dpSink)
            #expect(after.defaultSourceName == Self.laptopSource)
            #expect(try await control.status().isCallAudioOn == false)
            #expect(try await control.setCallAudio(false) == false, "already off")
        }
    }

    @Test func callEndLeavesAProfileSomeoneChangedSince() async throws {
        try await withRig { server, control in
            _ = try await control.setCallAudio(true)
            try await server.setCardProfile(Self.card, profile: "off")
            #expect(try await control.setCallAudio(false))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "off")
        }
    }

    @Test func useTheSpeakerAndTurnTheSpeakerOffAgain() async throws {
        try await withRig { server, control in
            let speaker = try await control.use("speakerphone")
            #expect(speaker.kind == .speakerphone)
            #expect(try await server.serverInfo().defaultSinkName == speaker.output?.deviceName)

            let back = try await control.setSpeaker(false)
            #expect(back?.kind == .bluetooth)
            #expect(try await server.serverInfo().defaultSinkName == Self.a2dpSink)
            #expect(try await control.setSpeaker(true)?.kind == .speakerphone)
        }
    }

    @Test func theMicrophoneIsTheDefaultSource() async throws {
        try await withRig { server, control in
            #expect(try await control.setMicrophoneMuted(true) == Self.laptopSource)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == true)
            #expect(try await control.status().isMicrophoneMuted == true)
            _ = try await control.setMicrophoneMuted(false)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == false)
        }
    }

    @Test func preferencesNeedTheDaemon() async throws {
        try await withRig { _, control in
            await #expect(throws: RouteCtlFailure.self) { try await control.setPreferences(["bluetooth"]) }
            let status = try await control.status()
            #expect(status.answerer == .soundServer)
            #expect(status.output?.id.rawValue == "\(Self.card)/headset-output")
            #expect(status.inputSource == Self.laptopSource)
        }
    }
}
