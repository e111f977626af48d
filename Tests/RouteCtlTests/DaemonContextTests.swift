import DBus
import Foundation
import Glibc
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon`'s context on its D-Bus API, driven from outside as a phone shell would:
/// silent mode following `pactl`, volume-button capture turning `pactl` volume steps into
/// signals and putting the volume back, the screen's state where nothing answers, and media
/// held when the headset goes.
@Suite("routectl daemon's context: silent mode, volume buttons, screen, media")
struct DaemonContextTests {
    static let path = "/io/github/routekit/RouteKit1"
    static let propertiesChanged =
        "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(path)'"
    static let buttons = "type='signal',interface='io.github.routekit.RouteKit1',member='VolumeButtonPressed'"

    /// Waits until RouteKit1's property `name` reads `expected` as busctl prints it: reads it,
    /// then again after each PropertiesChanged that names it.
    static func waitForProperty(_ name: String, _ expected: String, clients: SessionBusClients,
                                changes: AsyncStream<BusSignalMessage>) async throws {
        if try await clients.property(name) == expected { return }
        do {
            try await withTimeout("\(name) to read \(expected)", .seconds(10)) {
                for await signal in changes where "\(signal.arguments)".contains("\"\(name)\"") {
                    if try await clients.property(name) == expected { return }
                }
            }
        } catch let error as TimedOut {
            throw TimedOut(what: "\(error.what); it reads \((try? await clients.property(name)) ?? "nothing")")
        }
    }

    static func volume(of sink: String, on server: SandboxServer) async throws -> String {
        try await server.pactl("get-sink-volume", sink).split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test("SilentMode follows the default output's mute; ScreenLock is unknown where nothing answers", arguments: SoundServerKind.allCases)
    func silentMode(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, _ in
            let observer = try await clients.observer()
            let changes = try await observer.signals(matching: Self.propertiesChanged)
            try await Self.waitForProperty("SilentMode", "s \"audible\"", clients: clients, changes: changes)
            _ = try await server.pactl("set-sink-mute", "bt_headset", "1")
            try await Self.waitForProperty("SilentMode", "s \"silent\"", clients: clients, changes: changes)
            // routectl status, through the daemon, says the same, and what it knows of the screen.
            let status = try await clients.run(try Executable.built("routectl").url.path, ["status", "--server", server.socketPath])
            #expect(status.standardOutput.contains("Silent mode:     silent on bt_headset (muted)"), "\(status)")
            #expect(status.standardOutput.contains("Screen:          unknown"), "\(status)")
            _ = try await server.pactl("set-sink-mute", "bt_headset", "0")
            try await Self.waitForProperty("SilentMode", "s \"audible\"", clients: clients, changes: changes)
            // No logind on this bus and no system bus here, and no screensaver: said plainly.
            #expect(try await clients.property("ScreenLock") == "s \"unknown\"")
            #expect(try await clients.property("Idle") == "s \"unknown\"")
            #expect(try await clients.property("PausedPlayers") == "as 0")
        }
    }

    @Test("volume capture: each pactl step is a VolumeButtonPressed signal and is undone; stopping puts the volume back as it was",
          arguments: SoundServerKind.allCases)
    func volumeCapture(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            _ = try await server.pactl("set-sink-volume", "bt_headset", "40%")
            let before = try await Self.volume(of: "bt_headset", on: server)
            let observer = try await clients.observer()
            let changes = try await observer.signals(matching: Self.propertiesChanged)
            let presses = try await observer.signals(matching: Self.buttons)

            // Capture is held by the client that asked for it, for as long as its connection
            // lasts: a connection of the test's own, not a busctl that exits at once.
            _ = try await observer.call(ClientOwnedRequestTests.call("StartVolumeCapture"))
            try await Self.waitForProperty("VolumeCapture", "b true", clients: clients, changes: changes)
            _ = try await daemon.standardError.next("capture on") { $0 == "volume: capture on" }
            _ = try await server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await presses.next("the up press").arguments == [.string("up")])
            _ = try await server.pactl("set-sink-volume", "bt_headset", "-5%")
            #expect(try await presses.next("the down press").arguments == [.string("down")])
            _ = try await daemon.standardError.next("the down press line") { $0 == "volume: down pressed" }

            _ = try await observer.call(ClientOwnedRequestTests.call("StopVolumeCapture"))
            try await Self.waitForProperty("VolumeCapture", "b false", clients: clients, changes: changes)
            try await ServerObservation.waitUntil("the volume back as it was", on: server) { _ in
                try await Self.volume(of: "bt_headset", on: server) == before
            }
            #expect(try await server.pactl("get-sink-mute", "bt_headset").contains("no"))
        }
    }

    /// Answered before capture held the output, a press made at once could come before
    /// capture's reading or be undone by its hold, and was lost (a fresh-clone CI run of
    /// `VolumeKeysHangupTests/throughTheDaemon` on 0.3.65 never saw its press).
    @Test("StartVolumeCapture answers once capture holds the output: at full volume it is held one step down by then, and a press right after is seen",
          arguments: SoundServerKind.allCases)
    func captureHeldWhenAnswered(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            _ = try await server.pactl("set-sink-volume", "bt_headset", "100%")
            try await ServerObservation.waitUntil("the headset at 100 %", on: server) { _ in
                try await Self.volume(of: "bt_headset", on: server).contains("/ 100% /")
            }
            let observer = try await clients.observer()
            let presses = try await observer.signals(matching: Self.buttons)
            // Read on a connection made beforehand, a fraction of a millisecond after the answer
            // (a pactl would start too late to tell).
            let reader = PulseClient(configuration: .init(server: server.socketPath, reconnectPolicy: .never))
            defer { reader.shutdown() }
            try await reader.connect()
            _ = try await observer.call(ClientOwnedRequestTests.call("StartVolumeCapture"))
            let held = try #require(try await reader.sink(named: "bt_headset")).volume
            let oneStepDown = ChannelVolumes.normal * 9 / 10 ..< ChannelVolumes.normal
            #expect(!held.values.isEmpty && held.values.allSatisfy(oneStepDown.contains), "held one step inside 100 % when answered: \(held)")
            _ = try await server.pactl("set-sink-volume", "bt_headset", "-5%")
            #expect(try await presses.next("the down press").arguments == [.string("down")])
            _ = try await observer.call(ClientOwnedRequestTests.call("StopVolumeCapture"))
            try await ServerObservation.waitUntil("the volume back at 100 %", on: server) { _ in
                try await Self.volume(of: "bt_headset", on: server).contains("/ 100% /")
            }
        }
    }

    @Test("the headset playing goes: the daemon mutes its stream on the loudspeaker, says so, and unmutes it after its bound",
          arguments: SoundServerKind.allCases)
    func mediaOnUnplug(kind: SoundServerKind) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DBusAPITests.speaker)
            let headset = try await server.loadNullSink(name: "bt_headset", properties: DBusAPITests.headset)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let daemon = try await clients.daemon(["--prefer", "bluetooth", "--prefer", "speakerphone"], on: server)
                _ = try await daemon.standardError.next("the route on the headset") { $0.hasPrefix("route: bt_headset ") }
                let music = try await StreamProcess(on: server, .playback, device: "bt_headset")
                defer { music.stop() }
                let pid = String(music.processID)
                try await ServerObservation.waitUntilPlaying(pid, on: "bt_headset", server: server)
                try await server.unloadModule(headset)
                let line = try await daemon.standardError.next("the media line") { $0.hasPrefix("media: bt_headset went away") }
                #expect(line.contains("paused no player; muted streams"), "\(line)")
                #expect(line.contains("unmuted after 2.0 seconds"), "\(line)")
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
                // Stopped within the bound: nothing it muted stays muted.
                let inputs = try await server.pactl("list", "sink-inputs")
                #expect(inputs.contains("Mute: no") && !inputs.contains("Mute: yes"), "\(inputs)")
            }
        }
    }
}
