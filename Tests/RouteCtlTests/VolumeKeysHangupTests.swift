import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl volume-keys` run in a terminal that goes away: its window closed (the kernel hangs
/// the terminal up, and signals its foreground job), SIGHUP sent to it (as a shell does to its
/// jobs), or the window of a background job closed (the terminal hangs up, no signal comes). Capture must end as
/// with Ctrl-C: the volume put back, the daemon told, and a volume change made afterwards kept.
@Suite("routectl volume-keys on a hangup")
struct VolumeKeysHangupTests {
    /// How the terminal goes.
    enum Hangup: String, CaseIterable, CustomStringConvertible {
        /// The terminal window is closed: the master side of its pseudo-terminal closes.
        case terminalClosed
        /// SIGHUP is sent to routectl.
        case signal
        /// The window of a background job is closed, its shell passing no SIGHUP on: the
        /// terminal hangs up, and no signal comes.
        case backgroundJobsTerminalClosed

        var description: String { rawValue }

        /// How routectl runs in its terminal.
        var job: TerminalRun.Job { self == .backgroundJobsTerminalClosed ? .background : .foreground }

        func perform(on terminal: TerminalRun) {
            switch self {
            case .terminalClosed, .backgroundJobsTerminalClosed: terminal.close()
            case .signal: terminal.hangUp()
            }
        }
    }

    /// `routectl volume-keys --server SERVER` started in a terminal as `job`, once it has
    /// written `capturing` on standard error. Its log is on (`--log-level trace`), so that a
    /// failure's text says what capture last did (a 1.4.2 run once saw it never exit).
    static func startCapture(_ routectl: String, on server: SandboxServer, environment: [String: String],
                             job: TerminalRun.Job, capturing: String) async throws -> TerminalRun {
        let terminal = try await TerminalRun(routectl, ["volume-keys", "--server", server.socketPath, "--log-level", "trace"], environment: environment, job: job)
        _ = try await terminal.relay.standardError.next("capture") { $0 == capturing }
        return terminal
    }

    /// What capture on the server itself says when it starts.
    static let capturingDirectly = "volume-keys: capturing bt_headset (Ctrl-C to stop)"

    static func volume(on server: SandboxServer) async throws -> String {
        try await VolumeKeysTests.volume(on: server)
    }

    @Test("without the daemon: the volume is put back, and a change made after the hangup stays",
          arguments: SoundServerKind.allCases, Hangup.allCases)
    func direct(kind: SoundServerKind, hangup: Hangup) async throws {
        try await RouteCtlSession.with(kind) { session in
            _ = try await session.server.pactl("set-sink-volume", "bt_headset", "100%")
            let before = try await Self.volume(on: session.server)
            let terminal = try await Self.startCapture(session.routectl.url.path, on: session.server, environment: session.environment,
                                                       job: hangup.job, capturing: Self.capturingDirectly)
            let keys = terminal.relay
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
            let terminal = try await Self.startCapture(routectl, on: server, environment: clients.environment, job: hangup.job,
                                                       capturing: "volume-keys: the daemon captures (Ctrl-C to stop)")
            let keys = terminal.relay
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
            let terminal = try await Self.startCapture(session.routectl.url.path, on: session.server, environment: session.environment,
                                                       job: .ignoringHangup, capturing: Self.capturingDirectly)
            let keys = terminal.relay
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
}
