import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// GNOME Calls' sequence through `callaudiocli` against `routectl daemon --callaudio` with its
/// defaults: SelectMode 1, EnableSpeaker 1 then 0, MuteMic 1, SelectMode 0. After each step,
/// where audio goes (pactl) and what `callaudiocli -S` reports, as callaudiod 0.1.7 would
/// (Docs/CallAudio.md): on a phone with an earpiece, a loudspeaker and its built-in
/// microphone, and again with a wired headset plugged in.
@Suite("GNOME Calls' sequence through callaudiocli")
struct GnomeCallsSequenceTests {
    static let speaker = ["device.form_factor": "internal", "device.description": "Speaker", "device.name": "phone"]
    static let earpiece = ["device.form_factor": "handset", "device.description": "Earpiece", "device.name": "phone"]
    static let headset = ["device.bus": "usb", "device.form_factor": "headset", "device.description": "USB Headset"]

    /// One step: the default sink after it, and callaudiocli -S's three lines.
    struct Step: CustomStringConvertible {
        var command: [String]
        var sink: String
        var microphone: String
        var muted: Bool
        var status: String
        var description: String { "callaudiocli \(command.joined(separator: " "))" }
    }

    static func status(_ mode: String, _ speaker: String, _ mic: String) -> String {
        "Selected mode: CALL_AUDIO_MODE_\(mode)\nSpeaker enabled: CALL_AUDIO_SPEAKER_\(speaker)\nMic muted: CALL_AUDIO_MIC_\(mic)"
    }

    @Test("earpiece, speaker, built-in microphone, no headset", arguments: SoundServerKind.allCases)
    func phone(kind: SoundServerKind) async throws {
        try await run(kind, headset: false, steps: [
            Step(command: ["-m", "1"], sink: "earpiece", microphone: "speaker_mic", muted: false, status: Self.status("CALL", "OFF", "ON")),
            Step(command: ["-s", "1"], sink: "speaker", microphone: "speaker_mic", muted: false, status: Self.status("CALL", "ON", "ON")),
            Step(command: ["-s", "0"], sink: "earpiece", microphone: "speaker_mic", muted: false, status: Self.status("CALL", "OFF", "ON")),
            Step(command: ["-u", "1"], sink: "earpiece", microphone: "speaker_mic", muted: true, status: Self.status("CALL", "OFF", "OFF")),
            Step(command: ["-m", "0"], sink: "speaker", microphone: "speaker_mic", muted: false, status: Self.status("DEFAULT", "OFF", "ON")),
        ])
    }

    @Test("with a wired headset plugged in", arguments: SoundServerKind.allCases)
    func withHeadset(kind: SoundServerKind) async throws {
        try await run(kind, headset: true, steps: [
            Step(command: ["-m", "1"], sink: "usb_headset", microphone: "usb_headset_mic", muted: false, status: Self.status("CALL", "OFF", "ON")),
            Step(command: ["-s", "1"], sink: "speaker", microphone: "speaker_mic", muted: false, status: Self.status("CALL", "ON", "ON")),
            Step(command: ["-s", "0"], sink: "usb_headset", microphone: "usb_headset_mic", muted: false, status: Self.status("CALL", "OFF", "ON")),
            Step(command: ["-u", "1"], sink: "usb_headset", microphone: "usb_headset_mic", muted: true, status: Self.status("CALL", "OFF", "OFF")),
            Step(command: ["-m", "0"], sink: "speaker", microphone: "speaker_mic", muted: false, status: Self.status("DEFAULT", "OFF", "ON")),
        ])
    }

    /// Waits until CallAudio's `MicState` is known: reads it, then again after each
    /// PropertiesChanged of the CallAudio object.
    private static func waitForKnownMicState(clients: SessionBusClients, changes: AsyncStream<BusSignalMessage>) async throws {
        if try await clients.callAudioProperty("MicState") != "u 255" { return }
        try await withTimeout("CallAudio's MicState known", .seconds(10)) {
            for await _ in changes {
                if try await clients.callAudioProperty("MicState") != "u 255" { return }
            }
        }
    }

    private func run(_ kind: SoundServerKind, headset: Bool, steps: [Step]) async throws {
        try await SandboxServer.withServer(kind) { server in
            let speaker = try await server.plugDevice("speaker", properties: Self.speaker)
            _ = try await server.plugDevice("earpiece", properties: Self.earpiece, microphone: false)
            if headset { _ = try await server.plugDevice("usb_headset", properties: Self.headset) }
            // Media plays on the loudspeaker, as on a phone playing music out loud.
            _ = try await server.pactl("set-default-sink", "speaker")
            _ = try await server.pactl("set-default-source", speaker.microphone ?? "")
            try await ServerObservation.waitForDefaultSink("speaker", on: server)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let observer = try await clients.observer()
                let changes = try await observer.signals(matching:
                    "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/mobian_project/CallAudio'")
                let daemon = try await clients.daemon(["--callaudio"], on: server)
                _ = try await daemon.standardError.next("the route on the speaker") { $0.hasPrefix("route: speaker ") }
                // MicState is unknown (255) until the daemon has read the microphone's mute, a
                // moment after its first route, as callaudiod's is until it has found its card:
                // GNOME Calls reads it once it changes, and so does this test.
                try await Self.waitForKnownMicState(clients: clients, changes: changes)
                let before = try await clients.callaudiocli("-S")
                #expect(before.standardOutput.hasSuffix(Self.status("DEFAULT", "OFF", "ON")), "\(before)")
                for step in steps {
                    let done = try await clients.callaudiocli(step.command)
                    #expect(done.status == 0, "\(step): \(done)")
                    try await ServerObservation.waitForDefaultSink(step.sink, on: server)
                    try await ServerObservation.waitForDefaultSource(step.microphone, on: server)
                    let muted = try await server.pactl("get-source-mute", step.microphone).contains("yes")
                    #expect(muted == step.muted, "\(step): \(step.microphone) muted \(muted)")
                    let status = try await clients.callaudiocli("-S")
                    #expect(status.standardOutput.hasSuffix(step.status), "\(step): \(status.standardOutput)")
                }
                // Nothing was left muted by the call.
                for source in [speaker.microphone, headset ? "usb_headset_mic" : nil].compactMap({ $0 }) {
                    #expect(try await server.pactl("get-source-mute", source).contains("no"), "\(source)")
                }
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
            }
        }
    }
}
