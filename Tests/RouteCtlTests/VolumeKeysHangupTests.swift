import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl volume-keys` run in a terminal that goes away: its window closed (the kernel hangs
/// the terminal up) or SIGHUP sent to it (as a shell does to its jobs). Capture must end as
/// with Ctrl-C: the volume put back, the daemon told, and a volume change made afterwards kept.
@Suite("routectl volume-keys on a hangup")
struct VolumeKeysHangupTests {
    /// How the terminal goes.
    enum Hangup: String, CaseIterable, CustomStringConvertible {
        /// The terminal window is closed: the master side of its pseudo-terminal closes.
        case terminalClosed
        /// SIGHUP is sent to routectl.
        case signal

        var description: String { rawValue }

        func perform(on terminal: TerminalRun) {
            switch self {
            case .terminalClosed: terminal.close()
            case .signal: terminal.hangUp()
            }
        }
    }

    static func volume(on server: SandboxServer) async throws -> String {
        try await VolumeKeysTests.volume(on: server)
    }

    @Test("without the daemon: the volume is put back, and a change made after the hangup stays",
          arguments: SoundServerKind.allCases, Hangup.allCases)
    func direct(kind: SoundServerKind, hangup: Hangup) async throws {
        try await RouteCtlSession.with(kind) { session in
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "100%")
            let before = try await Self.volume(on: session.server)
            let terminal = try await TerminalRun(session.routectl.url.path, ["volume-keys", "--server", session.server.socketPath],
                                                 environment: session.environment)
            let keys = terminal.relay
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: capturing bt_headset (Ctrl-C to stop)" }
            // Held one step inside 100 %: a user sees 95 % until capture is released.
            try await ServerObservation.waitUntil("the volume held at 95 %", on: session.server) { _ in
                try await Self.volume(on: session.server) != before
            }
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "-5%")
            #expect(try await terminal.nextShown("the down press, on the terminal") == "down")

            hangup.perform(on: terminal)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            let written = try await keys.standardError.all()
            #expect(written.contains("volume-keys: released bt_headset, its volume as it was"), "\(written)")
            #expect(try await Self.volume(on: session.server) == before, "the volume as it was before capture")

            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "40%")
            try await ServerObservation.waitUntil("the volume at 40 %", on: session.server) { _ in
                try await Self.volume(on: session.server).contains("40%")
            }
            // Nothing captures any more: a second change is not undone either.
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "+5%")
            try await ServerObservation.waitUntil("the volume at 45 %", on: session.server) { _ in
                try await Self.volume(on: session.server).contains("45%")
            }
        }
    }

    @Test("with the daemon: StopVolumeCapture is sent, and a change made after the hangup stays",
          arguments: SoundServerKind.allCases, Hangup.allCases)
    func throughTheDaemon(kind: SoundServerKind, hangup: Hangup) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, _ in
            let routectl = try Executable.built("routectl").url.path
            let terminal = try await TerminalRun(routectl, ["volume-keys", "--server", server.socketPath],
                                                 environment: clients.environment)
            let keys = terminal.relay
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: the daemon captures (Ctrl-C to stop)" }
            #expect(try await clients.property("VolumeCapture") == "b true")
            _ = try await server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await terminal.nextShown("the up press, on the terminal") == "up")

            hangup.perform(on: terminal)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            let written = try await keys.standardError.all()
            #expect(written.contains("volume-keys: the daemon released the volume keys, the volume as it was"), "\(written)")
            #expect(try await clients.property("VolumeCapture") == "b false")

            _ = try await server.pactl("set-sink-volume", "bt_headset", "40%")
            try await ServerObservation.waitUntil("the volume at 40 %", on: server) { _ in
                try await Self.volume(on: server).contains("40%")
            }
            // A round trip to the daemon, then the volume read again: the daemon, which
            // undoes every change while it captures, has left this one alone.
            #expect(try await clients.call("Status").status == 0)
            _ = try await server.pactl("set-sink-volume", "bt_headset", "+5%")
            try await ServerObservation.waitUntil("the volume at 45 %", on: server) { _ in
                try await Self.volume(on: server).contains("45%")
            }
            #expect(try await clients.property("VolumeCapture") == "b false")
        }
    }

    @Test("under nohup (SIGHUP ignored), a hangup leaves capture on; Ctrl-C still puts the volume back",
          arguments: SoundServerKind.allCases)
    func nohup(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "60%")
            let before = try await Self.volume(on: session.server)
            let terminal = try await TerminalRun(session.routectl.url.path, ["volume-keys", "--server", session.server.socketPath],
                                                 environment: session.environment, job: .ignoringHangup)
            let keys = terminal.relay
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: capturing bt_headset (Ctrl-C to stop)" }
            terminal.hangUp()
            // Still capturing: the press is seen and undone.
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "+5%")
            #expect(try await terminal.nextShown("the up press, after SIGHUP") == "up")
            try await ServerObservation.waitUntil("the press undone", on: session.server) { _ in
                try await Self.volume(on: session.server) == before
            }
            kill(terminal.programID, SIGINT)
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            #expect(try await keys.standardError.all().contains("volume-keys: released bt_headset, its volume as it was"))
            #expect(try await Self.volume(on: session.server) == before)
        }
    }

    @Test("a background job whose terminal closes (no SIGHUP reaches it): the volume is put back",
          arguments: SoundServerKind.allCases)
    func backgroundJob(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "100%")
            let before = try await Self.volume(on: session.server)
            let terminal = try await TerminalRun(session.routectl.url.path, ["volume-keys", "--server", session.server.socketPath],
                                                 environment: session.environment, job: .background)
            let keys = terminal.relay
            _ = try await keys.standardError.next("capture") { $0 == "volume-keys: capturing bt_headset (Ctrl-C to stop)" }
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "-5%")
            #expect(try await terminal.nextShown("the down press, on the terminal") == "down")

            terminal.close()
            #expect(try await keys.exitStatus() == 0, "\(keys.standardError.lines)")
            #expect(try await keys.standardError.all().contains("volume-keys: released bt_headset, its volume as it was"))
            #expect(try await Self.volume(on: session.server) == before)
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "40%")
            try await ServerObservation.waitUntil("the volume at 40 %", on: session.server) { _ in
                try await Self.volume(on: session.server).contains("40%")
            }
        }
    }
}
