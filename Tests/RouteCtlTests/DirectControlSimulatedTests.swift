import Foundation
import PulseAudio
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import RouteKit
import RouteKitTesting
import Testing

/// routectl's commands without a daemon, on the simulated server, where a Bluetooth headset
/// has the card profiles that null sinks lack. Each command is one run of the engine; a
/// second ``DirectRoutingControl`` on the same runtime directory stands for a second routectl
/// process: only the engine's memory in the call record passes from one to the other.
@Suite("Direct control on the simulated server")
struct DirectControlSimulatedTests {
    static let card = "bluez_card.00_1B_66_AA_BB_CC"
    static let a2dpSink = "bluez_sink.00_1B_66_AA_BB_CC.a2dp_sink"
    static let hspSink = "bluez_sink.00_1B_66_AA_BB_CC.headset_head_unit"
    static let hspSource = "bluez_source.00_1B_66_AA_BB_CC.headset_head_unit"
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"
    static let laptopSource = "alsa_input.pci-0000_00_1f.3.analog-stereo"

    /// A laptop and a Bluetooth headset in A2DP, audio on the headset, the laptop's microphone
    /// the input; `body` gets a control per routectl process it asks for, all on one fresh
    /// runtime directory.
    func withRig(headset: Bool = true, _ body: (SimulatedServer, () -> DirectRoutingControl) async throws -> Void) async throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("routectl-runtime-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addCard(.laptopAnalog())
        if headset {
            _ = try server.addCard(.bluetoothHeadset(activeProfile: "a2dp_sink"))
            try await server.setDefaultSink(Self.a2dpSink)
        }
        try await server.setDefaultSource(Self.laptopSource)
        let process = {
            DirectRoutingControl(server: server,
                                 callRecords: CallRecordStore.standard(server: "simulated", environment: ["XDG_RUNTIME_DIR": runtime]))
        }
        try await body(server, process)
    }

    @Test func callStartMovesTheHeadsetToItsHeadsetProfileAndCallEndInAnotherProcessPutsA2DPAndTheInputBack() async throws {
        try await withRig { server, process in
            #expect(try await process().setCallAudio(true))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "headset_head_unit")
            let during = try await server.serverInfo()
            #expect(during.defaultSinkName == Self.hspSink)
            #expect(during.defaultSourceName == Self.hspSource, "the headset's microphone is the input")
            #expect(try await process().status().isCallAudioOn)
            #expect(try await process().setCallAudio(true) == false, "already on")

            #expect(try await process().setCallAudio(false))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "a2dp_sink", "the engine put the profile back")
            #expect(try await server.serverInfo().defaultSourceName == Self.laptopSource, "and the input")
            #expect(try await server.serverInfo().defaultSinkName == Self.a2dpSink, "and media where the call found it")
            #expect(try await process().status().isCallAudioOn == false)
            #expect(try await process().setCallAudio(false) == false, "already off")
        }
    }

    @Test func callEndInAnotherProcessBringsMediaBackWhereTheCallFoundIt() async throws {
        try await withRig { server, process in
            try await server.setDefaultSink(Self.laptopSink)
            _ = try await process().setCallAudio(true)
            #expect(try await server.serverInfo().defaultSinkName == Self.hspSink, "the call list: the headset")
            _ = try await process().setCallAudio(false)
            #expect(try await server.card(named: Self.card)?.activeProfileName == "a2dp_sink")
            #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink, "media is back on the laptop")
        }
    }

    @Test func callEndLeavesAProfileSomeoneChangedSince() async throws {
        try await withRig { server, process in
            // Media on the laptop before the call, the call on the speaker at the end: the
            // headset is not the route then, so nothing takes it back.
            try await server.setDefaultSink(Self.laptopSink)
            _ = try await process().setCallAudio(true)
            #expect(try await server.card(named: Self.card)?.activeProfileName == "headset_head_unit")
            _ = try await process().setSpeaker(true)
            try await server.setCardProfile(Self.card, profile: "off")
            #expect(try await process().setCallAudio(false))
            #expect(try await server.card(named: Self.card)?.activeProfileName == "off")
            #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink, "media where the call found it")
        }
    }

    @Test func theSpeakerToggleStaysWithTheCallAcrossProcessesAndTheMuteFollowsTheRoute() async throws {
        try await withRig { server, process in
            _ = try await process().setCallAudio(true)
            #expect(try await process().setMicrophoneMuted(true) == Self.hspSource)
            #expect(try await process().setSpeaker(true)?.kind == .speakerphone)
            #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == true, "the mute followed to the laptop's microphone")

            // Another command in the call does not take the route from the speaker.
            #expect(try await process().setMicrophoneMuted(true) == Self.laptopSource)
            #expect(try await server.serverInfo().defaultSinkName == Self.laptopSink, "the toggle was remembered")

            let off = try await process().setSpeaker(false)
            #expect(off?.kind == .bluetooth, "off: the best device of the call list that is no speaker")
            #expect(try await server.serverInfo().defaultSinkName == Self.hspSink)
            #expect(try await server.source(named: Self.hspSource)?.isMuted == true)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == false)

            _ = try await process().setCallAudio(false)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == false, "the call's end unmutes")
            #expect(try await server.card(named: Self.card)?.activeProfileName == "a2dp_sink")
        }
    }

    @Test func useTheSpeakerAndTurnTheSpeakerOffAgain() async throws {
        try await withRig { server, process in
            let speaker = try await process().use("speakerphone")
            #expect(speaker.kind == .speakerphone)
            #expect(try await server.serverInfo().defaultSinkName == speaker.output?.deviceName)

            let back = try await process().setSpeaker(false)
            #expect(back?.kind == .bluetooth)
            #expect(try await server.serverInfo().defaultSinkName == Self.a2dpSink, "outside a call: its media profile")
            #expect(try await process().setSpeaker(true)?.kind == .speakerphone)
        }
    }

    @Test func speakerOffWithNothingButTheSpeakerIsRefusedAndListsTheDevices() async throws {
        try await withRig(headset: false) { server, process in
            let before = try await server.serverInfo().defaultSinkName
            await #expect {
                try await process().setSpeaker(false)
            } throws: { error in
                guard let failure = error as? RouteCtlFailure, case .noSuchDevice(let message) = failure else { return false }
                return message.hasPrefix("nothing but the speakerphone can carry the call") && message.contains("(speakerphone)")
            }
            #expect(try await server.serverInfo().defaultSinkName == before, "nothing changed")
        }
    }

    @Test func theMicrophoneIsTheOneTheRouteRecordsFromAndUnmutingWorksInAnotherProcess() async throws {
        try await withRig { server, process in
            #expect(try await process().setMicrophoneMuted(true) == Self.laptopSource)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == true)
            #expect(try await process().status().isMicrophoneMuted == true)
            _ = try await process().setMicrophoneMuted(false)
            #expect(try await server.source(named: Self.laptopSource)?.isMuted == false)
        }
    }

    @Test func preferencesNeedTheDaemon() async throws {
        try await withRig { _, process in
            let control = process()
            await #expect(throws: RouteCtlFailure.self) { try await control.setPreferences(["bluetooth"]) }
            let status = try await control.status()
            #expect(status.answerer == .soundServer)
            #expect(status.output?.id.rawValue == "\(Self.card)/headset-output")
            #expect(status.inputSource == Self.laptopSource)
        }
    }
}
