import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// One router: `routectl speaker` and `mic` give the same answer with the daemon and without
/// it (a one-shot run of the same engine), through the built binary on real sandboxed servers.
@Suite("routectl answers the same with and without the daemon")
struct OneRouterTests {
    /// A sandboxed server with a speaker, a wired (USB) headset and an earpiece, audio on the
    /// speaker, a session for routectl and a private session bus (no daemon on it yet).
    static func with(_ kind: SoundServerKind, _ body: (RouteCtlSession, PrivateSessionBus) async throws -> Void) async throws {
        try await RouteCtlSession.with(kind, setUp: { server in
            _ = try await server.plugDevice("speaker", properties: DeviceProperties.speaker, microphone: false)
            _ = try await server.loadNullSink(name: "usb_headset", properties: DeviceProperties.wiredHeadset)
            _ = try await server.loadNullSink(name: "earpiece", properties: ["device.form_factor": "handset", "device.description": "Earpiece"])
            _ = try await server.pactl("set-default-sink", "speaker")
            try await ServerObservation.waitForDefaultSink("speaker", on: server)
        }) { session in
            try await PrivateSessionBus.withBus { bus in try await body(session, bus) }
        }
    }

    /// `routectl ARGUMENTS` on `bus` (where a daemon may run).
    static func run(_ session: RouteCtlSession, _ bus: PrivateSessionBus, _ arguments: [String]) async throws -> Executable.Output {
        try await session.run(arguments, extra: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
    }

    /// Runs `body` while `routectl daemon` with its defaults (no preferences) serves the API on
    /// `bus`, then stops it with SIGTERM and expects a clean exit.
    static func withDaemon<Result>(_ session: RouteCtlSession, _ bus: PrivateSessionBus,
                                   _ body: () async throws -> Result) async throws -> Result {
        var environment = session.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let daemon = try await RunningProcess(session.routectl.url, ["daemon", "--server", session.server.socketPath],
                                              environment: environment)
        _ = try await daemon.standardError.next("the daemon to serve the API") { $0.hasPrefix("dbus: serving") }
        let result = try await body()
        daemon.send(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.standardError.lines)")
        return result
    }

    /// What `speaker on` then `speaker off` print and leave as the default sink.
    static func toggle(_ session: RouteCtlSession, _ bus: PrivateSessionBus) async throws -> (on: String, off: String, sink: String?) {
        let on = try await run(session, bus, ["speaker", "on"])
        #expect(on.status == 0, "\(on.standardError)")
        let off = try await run(session, bus, ["speaker", "off"])
        #expect(off.status == 0, "\(off.standardError)")
        return (on.standardOutput, off.standardOutput, try await ServerObservation.defaultSink(on: session.server))
    }

    @Test("speaker off with an earpiece, a speaker and a wired headset: the headset, with and without the daemon",
          arguments: SoundServerKind.allCases)
    func speakerOff(kind: SoundServerKind) async throws {
        try await Self.with(kind) { session, bus in
            let without = try await Self.toggle(session, bus)
            #expect(without.off == "speaker: off; audio goes to usb_headset (USB Headset)\n")
            #expect(without.sink == "usb_headset")

            _ = try await Self.run(session, bus, ["use", "speakerphone"])
            let with = try await Self.withDaemon(session, bus) { try await Self.toggle(session, bus) }

            #expect(with.on == without.on)
            #expect(with.off == without.off)
            #expect(with.sink == without.sink)
        }
    }

    @Test("speaker off with a Bluetooth and a wired headset: the Bluetooth one, the call list's first, both ways",
          arguments: SoundServerKind.allCases)
    func speakerOffPrefersBluetooth(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            try await PrivateSessionBus.withBus { bus in
                let without = try await Self.toggle(session, bus)
                #expect(without.off == "speaker: off; audio goes to bt_headset (BT Headset)\n")

                let with = try await Self.withDaemon(session, bus) { try await Self.toggle(session, bus) }
                #expect(with.off == without.off)
                #expect(with.sink == without.sink)
            }
        }
    }

    @Test("mic mute with nothing recorded from: the same refusal, 67, with and without the daemon",
          arguments: SoundServerKind.allCases)
    func microphoneRefused(kind: SoundServerKind) async throws {
        try await Self.with(kind) { session, bus in
            let without = try await Self.run(session, bus, ["mic", "mute"])
            #expect(without.status == 67)
            #expect(without.standardError.contains("no microphone is in use"), "\(without.standardError)")

            let with = try await Self.withDaemon(session, bus) { try await Self.run(session, bus, ["mic", "mute"]) }
            #expect(with.status == without.status)
            #expect(with.standardError == without.standardError)
        }
    }
}
