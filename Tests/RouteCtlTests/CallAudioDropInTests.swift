import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon --callaudio` answering for callaudiod, driven by libcallaudio's own client
/// `callaudiocli` (Debian's libcallaudio-tools), on virtual devices where callaudiod itself
/// finds no usable card.
@Suite("routectl daemon --callaudio")
struct CallAudioDropInTests {
    static let callAudioOwner =
        "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.mobian_project.CallAudio'"

    @Test("callaudiocli -m 1, -s 1 and -u 1 succeed, change the server, and -S reports them",
          arguments: SoundServerKind.allCases)
    func callaudiocli(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind, ["--callaudio"]) { server, clients, daemon in
            #expect(daemon.standardError.lines.contains(
                "dbus: serving io.github.routekit.RouteKit1 and org.mobian_project.CallAudio on the session bus (\(clients.bus.address))"))
            let before = try await clients.callaudiocli("-S")
            #expect(before.status == 0, "\(before)")
            #expect(before.standardOutput.contains("Selected mode: CALL_AUDIO_MODE_DEFAULT"), "\(before)")
            #expect(before.standardOutput.contains("Speaker enabled: CALL_AUDIO_SPEAKER_OFF"), "\(before)")

            let call = try await clients.callaudiocli("-m", "1")
            #expect(call.status == 0, "\(call)")
            #expect(try await clients.callAudioProperty("AudioMode") == "u 1")
            #expect(try await clients.property("CallAudio") == "b true")

            let speaker = try await clients.callaudiocli("-s", "1")
            #expect(speaker.status == 0, "\(speaker)")
            try await ServerObservation.waitForDefaultSink("speaker", on: server)

            let mute = try await clients.callaudiocli("-u", "1")
            #expect(mute.status == 0, "\(mute)")
            #expect(try await server.pactl("get-source-mute", "@DEFAULT_SOURCE@").contains("yes"))

            let status = try await clients.callaudiocli("-S")
            #expect(status.status == 0, "\(status)")
            #expect(status.standardOutput.contains("Selected mode: CALL_AUDIO_MODE_CALL"), "\(status)")
            #expect(status.standardOutput.contains("Speaker enabled: CALL_AUDIO_SPEAKER_ON"), "\(status)")
            #expect(status.standardOutput.contains("Mic muted: CALL_AUDIO_MIC_OFF"), "\(status)")

            // And back: speaker off returns to the preferred headset, default mode ends call audio.
            #expect(try await clients.callaudiocli("-s", "0").status == 0)
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
            #expect(try await clients.callaudiocli("-u", "0").status == 0)
            #expect(try await clients.callaudiocli("-m", "0").status == 0)
            let after = try await clients.callaudiocli("-S")
            #expect(after.standardOutput.contains("Selected mode: CALL_AUDIO_MODE_DEFAULT"), "\(after)")
            #expect(after.standardOutput.contains("Speaker enabled: CALL_AUDIO_SPEAKER_OFF"), "\(after)")
            #expect(after.standardOutput.contains("Mic muted: CALL_AUDIO_MIC_ON"), "\(after)")
        }
    }

    @Test("PropertiesChanged carries callaudiod's properties as they change")
    func propertiesChanged() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio, ["--callaudio"]) { _, clients, _ in
            let observer = try await clients.observer()
            let changes = try await observer.signals(matching:
                "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/mobian_project/CallAudio'")
            #expect(try await clients.callaudiocli("-m", "1").status == 0)
            // Changes from the daemon's start may come first (AudioMode from unknown to 0 once it
            // follows the server, SpeakerState once routed): skip them.
            let changed = try await changes.next("AudioMode's change to call") {
                $0.arguments.dropFirst().first?.variantDictionaryValue?["AudioMode"] == .uint32(1)
            }
            #expect(changed.arguments.first == .string("org.mobian_project.CallAudio"))
            #expect(changed.arguments.dropFirst().first?.variantDictionaryValue?["AudioMode"] == .uint32(1), "\(changed)")
            #expect(changed.arguments.last == .strings([]), "no property is only invalidated")
            await observer.close()
        }
    }

    @Test("SelectMode with an unknown mode is InvalidArgs, as callaudiod answers, and nothing changes")
    func unknownMode() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio, ["--callaudio"]) { _, clients, _ in
            let output = try await clients.busctl(["call", "org.mobian_project.CallAudio", "/org/mobian_project/CallAudio",
                                                   "org.mobian_project.CallAudio", "SelectMode", "u", "7"])
            #expect(output.status != 0)
            #expect(output.standardError.contains("Invalid mode 7"), "\(output)")
            #expect(try await clients.callAudioProperty("AudioMode") == "u 0")
        }
    }

    @Test("callaudiod itself fails on these devices; while it holds the name, --callaudio is refused, naming it")
    func callaudiodHoldsTheName() async throws {
        try await SandboxServer.withServer(.pulseaudio) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DaemonTests.speaker)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let observer = try await clients.observer()
                let owners = try await observer.signals(matching: Self.callAudioOwner)
                var environment = clients.environment
                environment["PULSE_SERVER"] = server.serverAddress
                let callaudiod = try await RunningProcess(URL(fileURLWithPath: "/usr/bin/callaudiod"), [], environment: environment)
                _ = try await owners.next("callaudiod to own its name")

                let itself = try await clients.callaudiocli("-m", "1")
                #expect(itself.status != 0, "callaudiod finds no usable card on virtual devices: \(itself)")
                _ = try await callaudiod.standardError.next("callaudiod's reason") { $0.contains("no usable sink") }

                let daemon = try await RunningProcess(try Executable.built("routectl").url,
                                                ["daemon", "--callaudio", "--server", server.socketPath],
                                                environment: clients.environment)
                #expect(try await daemon.exitStatus() == 75)
                let message = try await daemon.standardError.all().joined(separator: "\n")
                #expect(message.contains("""
                    routectl: org.mobian_project.CallAudio is owned by callaudiod (pid \(callaudiod.processIdentifier)) \
                    on the session bus, so RouteKit cannot answer for callaudiod: stop callaudiod \
                    (systemctl --user stop callaudiod) or run without --callaudio
                    """), "\(message)")
                // callaudiod does not end on SIGTERM while its PulseAudio setup failed; it is ours to kill.
                callaudiod.send(SIGKILL)
                #expect(try await callaudiod.exitStatus() == 128 + SIGKILL)
                await observer.close()
            }
        }
    }
}
