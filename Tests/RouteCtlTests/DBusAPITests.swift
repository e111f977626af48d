import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon`'s D-Bus API driven as a softphone in another language drives it: with
/// `busctl --user` on a private session bus, against sandboxed servers with virtual devices.
/// The server is checked with pactl; waits are on the daemon's lines, the bus's signals and
/// the server's events.
@Suite("routectl daemon's D-Bus API")
struct DBusAPITests {
    static let speaker = DaemonTests.speaker
    static let headset = DaemonTests.headset
    static let routeChanged = "type='signal',interface='io.github.routekit.RouteKit1',member='RouteChanged'"

    /// A speaker and a Bluetooth headset, with the daemon preferring the headset.
    static func withDaemon(_ kind: SoundServerKind, _ extra: [String] = [],
                           _ body: (SandboxServer, SessionBusClients, RunningProcess) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            _ = try await server.plugDevice("speaker", properties: speaker)
            _ = try await server.plugDevice("bt_headset", properties: headset)
            try await PrivateSessionBus.withBus { bus in
                let clients = SessionBusClients(bus: bus)
                let daemon = try await clients.daemon(["--prefer", "bluetooth", "--prefer", "speakerphone"] + extra, on: server)
                _ = try await daemon.standardError.next("the route on the headset") { $0.hasPrefix("route: bt_headset ") }
                try await body(server, clients, daemon)
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
            }
        }
    }

    @Test("busctl introspects the interface: its methods, properties and signals")
    func introspect() async throws {
        try await Self.withDaemon(.pulseaudio) { _, clients, _ in
            let output = try await clients.busctl(["introspect", "io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1"])
            #expect(output.status == 0, "\(output)")
            let lines = output.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            func row(_ name: String) -> [Substring]? { lines.first { $0.first.map(String.init) == name } }
            #expect(row(".Use")?.dropFirst().first == "method")
            #expect(row(".Use")?.dropFirst(2).prefix(2) == ["s", "s"])
            #expect(row(".SetPreferences")?.dropFirst(2).first == "as")
            #expect(row(".ListDevices")?.dropFirst(3).first == "aa{sv}")
            for method in ["ClearSelection", "ClearPreferences", "StartCall", "EndCall", "EnableSpeaker", "MuteMic", "Refresh", "Status"] {
                #expect(row("." + method)?.dropFirst().first == "method", "\(method)")
            }
            #expect(row(".Route")?.prefix(4) == [".Route", "property", "s", "\"bt_headset\""])
            #expect(row(".Connection")?.prefix(4) == [".Connection", "property", "s", "\"ready\""])
            #expect(row(".CallAudio")?.last == "emits-change")
            #expect(row(".RouteChanged")?.prefix(3) == [".RouteChanged", "signal", "sss"])
            #expect(row(".SwitchFailed")?.prefix(3) == [".SwitchFailed", "signal", "sss"])
        }
    }

    @Test("Use, ClearSelection, StartCall/EndCall, EnableSpeaker and MuteMic change the server and the properties",
          arguments: SoundServerKind.allCases)
    func drive(kind: SoundServerKind) async throws {
        try await Self.withDaemon(kind) { server, clients, _ in
            let observer = try await clients.observer()
            let routes = try await observer.signals(matching: Self.routeChanged)

            let used = try await clients.call("Use", "s", "speakerphone")
            #expect(used.standardOutput == "s \"speaker\"", "\(used)")
            try await ServerObservation.waitForDefaultSink("speaker", on: server)
            // The signal for the first route may come after the daemon's line for it: skip it.
            let toSpeaker = try await routes.next("RouteChanged to the speaker") { $0.arguments.dropFirst().first == .string("speaker") }
            #expect(toSpeaker.arguments == [.string("bt_headset"), .string("speaker"), .string("selectionChanged")])
            #expect(try await clients.property("Route") == "s \"speaker\"")
            #expect(try await clients.property("Selection") == "s \"speaker\"")
            #expect(try await clients.property("Speaker") == "b true")

            #expect(try await clients.call("ClearSelection").status == 0)
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
            #expect(try await clients.property("Route") == "s \"bt_headset\"")
            #expect(try await clients.property("Selection") == "s \"\"")

            #expect(try await clients.call("StartCall").status == 0)
            #expect(try await clients.property("CallAudio") == "b true")
            #expect(try await clients.call("EndCall").status == 0)
            #expect(try await clients.property("CallAudio") == "b false")

            #expect(try await clients.call("EnableSpeaker", "b", "true").status == 0)
            try await ServerObservation.waitForDefaultSink("speaker", on: server)
            #expect(try await clients.property("Speaker") == "b true")
            #expect(try await clients.call("EnableSpeaker", "b", "false").status == 0)
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
            #expect(try await clients.property("Speaker") == "b false")

            #expect(try await clients.call("MuteMic", "b", "true").status == 0)
            #expect(try await server.pactl("get-source-mute", "@DEFAULT_SOURCE@").contains("yes"))
            #expect(try await clients.property("MicMuted") == "b true")
            #expect(try await clients.call("MuteMic", "b", "false").status == 0)
            #expect(try await server.pactl("get-source-mute", "@DEFAULT_SOURCE@").contains("no"))

            #expect(try await clients.call("SetPreferences", "as", "2", "speakerphone", "bluetooth").status == 0)
            try await ServerObservation.waitForDefaultSink("speaker", on: server)
            #expect(try await clients.property("Preferences") == "as 2 \"speakerphone\" \"bluetooth\"")
            await observer.close()
        }
    }

    @Test("a wrong argument type, an unknown device and a misspelled kind are D-Bus errors that name the valid ones, and change nothing")
    func refusals() async throws {
        try await Self.withDaemon(.pulseaudio) { server, clients, daemon in
            let wrongType = try await clients.call("Use", "u", "3")
            #expect(wrongType.status != 0)
            #expect(wrongType.standardError.contains("Invalid arguments 'u' to call io.github.routekit.RouteKit1.Use(), expecting 's'."),
                    "\(wrongType)")

            let unknown = try await clients.call("Use", "s", "usb_headset")
            #expect(unknown.status != 0)
            #expect(unknown.standardError.contains("""
                no device "usb_headset" is present. Kinds: bluetooth, wiredHeadset, speakerphone, earpiece; \
                devices: speaker (speakerphone), bt_headset (bluetooth).
                """), "\(unknown)")

            let misspelled = try await clients.call("SetPreferences", "as", "1", "speakerfone")
            #expect(misspelled.standardError.contains("no kind \"speakerfone\"; did you mean speakerphone?"), "\(misspelled)")

            let typed = try await clients.busctl(["call", "org.mobian_project.CallAudio", "/org/mobian_project/CallAudio",
                                                  "org.mobian_project.CallAudio", "SelectMode", "u", "1"])
            #expect(typed.status != 0, "CallAudio is not served without --callaudio")

            // Errors are answered before anything is done: the state is as it was.
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset")
            #expect(try await clients.property("Route") == "s \"bt_headset\"")
            #expect(try await clients.property("Selection") == "s \"\"")
            #expect(try await clients.property("Preferences") == "as 2 \"bluetooth\" \"speakerphone\"")
            #expect(daemon.standardError.lines.filter { $0.hasPrefix("route: ") }.count == 1, "\(daemon.standardError.lines)")
        }
    }

    @Test("ListDevices and Status answer with records, and a device plugged in is announced with DevicesChanged")
    func records() async throws {
        try await Self.withDaemon(.pulseaudio) { server, clients, _ in
            let observer = try await clients.observer()
            let devicesChanged = try await observer.signals(matching:
                "type='signal',interface='io.github.routekit.RouteKit1',member='DevicesChanged'")
            let list = try await observer.call(BusCall(destination: "io.github.routekit.RouteKit1", path: "/io/github/routekit/RouteKit1",
                                                       interface: "io.github.routekit.RouteKit1", member: "ListDevices"))
            let records = try #require(list.first?.arrayValue, "ListDevices answered \(list)")
            let ids = records.compactMap { $0.variantDictionaryValue?["id"]?.stringValue }
            #expect(ids == ["speaker", "bt_headset"])
            #expect(records.last?.variantDictionaryValue?["kind"] == .string("bluetooth"))

            let status = try await observer.call(BusCall(destination: "io.github.routekit.RouteKit1", path: "/io/github/routekit/RouteKit1",
                                                         interface: "io.github.routekit.RouteKit1", member: "Status"))
            #expect(status.first?.variantDictionaryValue?["Route"] == .string("bt_headset"))
            #expect(status.first?.variantDictionaryValue?["Connected"] == .boolean(true))
            #expect(status.first?.variantDictionaryValue?["Connection"] == .string("ready"))

            _ = try await server.loadNullSink(name: "usb_headset", properties: [
                "device.bus": "usb", "device.form_factor": "headset", "device.description": "USB Headset"])
            let plugged = try await devicesChanged.next("DevicesChanged with the USB headset")
            let now = try #require(plugged.arguments.first?.arrayValue, "\(plugged)")
            let nowIDs = now.compactMap { $0.variantDictionaryValue?["id"]?.stringValue }
            #expect(nowIDs.contains("usb_headset"), "\(nowIDs)")
            await observer.close()
        }
    }

    @Test("the sound server SIGKILLed: Connection reads reconnecting, then ready, each change announced; the daemon says the loss once and the return once",
          arguments: SoundServerKind.allCases)
    func serverKilled(kind: SoundServerKind) async throws {
        try await Self.withDaemon(kind) { server, clients, daemon in
            #expect(try await clients.property("Connection") == "s \"ready\"")
            #expect(try await clients.property("Connected") == "b true")
            let observer = try await clients.observer()
            let changes = try await observer.signals(matching: DaemonContextTests.propertiesChanged)
            @Sendable func connection(_ signal: BusSignalMessage) -> BusValue? {
                signal.arguments.dropFirst().first?.variantDictionaryValue?["Connection"]
            }

            try await server.crash()
            let lost = try await changes.next("PropertiesChanged: Connection reconnecting") { connection($0) != nil }
            #expect(connection(lost) == .string("reconnecting"), "\(lost)")
            #expect(lost.arguments.dropFirst().first?.variantDictionaryValue?["Connected"] == .boolean(false), "\(lost)")
            let lostLine = try await daemon.standardError.next("the loss, said once") {
                $0.hasPrefix("server: connection lost; reconnecting (attempt 1, after: ")
            }
            #expect(lostLine.hasSuffix("; said again when it is back"), "\(lostLine)")
            #expect(try await clients.property("Connection") == "s \"reconnecting\"")
            #expect(try await clients.property("Route") == "s \"\"", "no route is named while the server is gone")

            try await server.restart()
            let back = try await changes.next("PropertiesChanged: Connection ready") { connection($0) != nil }
            #expect(connection(back) == .string("ready"), "\(back)")
            // The next server line is the return, counting the attempts none of which had a line.
            let again = try await daemon.standardError.next("the server back") { $0.hasPrefix("server: ") }
            #expect(again.hasPrefix("server: connected again after "), "\(daemon.standardError.lines)")
            // How many attempts fit between the kill and the restart depends on the machine's
            // load (one, under CI's); that none of them had a line is what the `.next` above shows.
            let attempts = Int(again.split(separator: " ").dropFirst(4).first ?? "") ?? 0
            #expect(attempts >= 1, "the return counts the attempts: \(again)")
            #expect(try await clients.property("Connection") == "s \"ready\"")
            #expect(try await clients.property("Connected") == "b true")
            await observer.close()
        }
    }

    @Test("the session bus going away: the daemon says so, keeps routing, and serves again when the bus is back")
    func busRestart() async throws {
        try await Self.withDaemon(.pulseaudio) { server, clients, daemon in
            await clients.bus.stop()
            _ = try await daemon.standardError.next("the loss of the bus") { $0.hasPrefix("dbus: lost the session bus") }

            let plugged = try await server.loadNullSink(name: "bt_headset_2", properties: [
                "device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Second Headset"])
            _ = try await daemon.standardError.next("routing without the bus") { $0.hasPrefix("route: bt_headset_2 ") }
            try await ServerObservation.waitForDefaultSink("bt_headset_2", on: server)

            try await clients.bus.restart()
            let again = try await daemon.standardError.next("the API back") { $0.hasPrefix("dbus: serving") }
            #expect(again == "dbus: serving io.github.routekit.RouteKit1 on the session bus (\(clients.bus.address)) again")
            #expect(try await clients.property("Route") == "s \"bt_headset_2\"")
            try await server.unloadModule(plugged)
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)
        }
    }

    @Test("no session bus at start: the daemon routes, says so, and serves the API once the bus is there")
    func busLater() async throws {
        try await SandboxServer.withServer(.pulseaudio) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: Self.speaker)
            try await PrivateSessionBus.withBus { bus in
                await bus.stop()
                let clients = SessionBusClients(bus: bus)
                let daemon = try await RunningProcess(try Executable.built("routectl").url,
                                                ["daemon", "--prefer", "speakerphone", "--server", server.socketPath],
                                                environment: clients.environment)
                let noBus = try await daemon.standardError.next("the line about the bus") { $0.hasPrefix("dbus: ") }
                #expect(noBus.hasPrefix("dbus: no session bus: could not connect to \(bus.address): "), "\(noBus)")
                #expect(noBus.hasSuffix("; routing goes on, and the API comes up when the bus does"), "\(noBus)")
                _ = try await daemon.standardError.next("the route") { $0.hasPrefix("route: speaker ") }

                try await bus.restart()
                _ = try await daemon.standardError.next("the API served") { $0.hasPrefix("dbus: serving io.github.routekit.RouteKit1") }
                #expect(try await clients.property("Route") == "s \"speaker\"")
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
            }
        }
    }

    @Test("a second daemon on the same bus is refused with exit status 75, naming the first")
    func secondDaemon() async throws {
        try await Self.withDaemon(.pulseaudio) { server, clients, first in
            let second = try await RunningProcess(try Executable.built("routectl").url,
                                            ["daemon", "--prefer", "speakerphone", "--server", server.socketPath],
                                            environment: clients.environment)
            #expect(try await second.exitStatus() == 75)
            let message = try await second.standardError.all().joined(separator: "\n")
            #expect(message.contains("routectl: io.github.routekit.RouteKit1 is owned by routectl (pid \(first.processIdentifier))"),
                    "\(message)")
            #expect(message.contains("another RouteKit daemon runs in this session"))
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset", "the second daemon changed nothing")
        }
    }

    @Test("--help tells about the API, and --callaudio without it is a usage error")
    func help() async throws {
        let routectl = try Executable.built("routectl")
        let help = try await routectl.run(["daemon", "--help"])
        #expect(help.standardOutput.contains("io.github.routekit.RouteKit1"))
        #expect(help.standardOutput.contains("--callaudio"))
        #expect(help.standardOutput.contains("75"))
        let refused = try await routectl.run(["daemon", "--no-dbus", "--callaudio", "--server", "/nonexistent/native"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--callaudio needs the D-Bus API"))
    }
}
