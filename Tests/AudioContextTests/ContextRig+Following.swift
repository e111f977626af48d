import AudioContext
import PulseAudio
import RouteKit
import TestSupport

/// What silent mode and volume capture follow in a test: the server itself, or a running
/// manager's mirror of it (as in the daemon).
enum Following: String, CaseIterable, Sendable {
    /// They read the server themselves.
    case server
    /// They follow an ``AudioDeviceManager`` running on the rig's connection.
    case manager
}

extension ContextRig {
    /// Runs `body` with a manager on the rig's connection when `following` is ``Following/manager``
    /// (no preferences: it routes nothing, and follows what pactl does), stopped afterwards
    /// whatever `body` does; nil otherwise.
    func withManager(_ following: Following, _ body: (AudioDeviceManager?) async throws -> Void) async throws {
        guard following == .manager else { return try await body(nil) }
        let manager = AudioDeviceManager(server: client, logger: Self.logger)
        try await manager.start()
        do {
            try await body(manager)
        } catch {
            await manager.stop()
            throw error
        }
        await manager.stop()
    }

    /// Volume capture on the rig's connection, following `manager` when there is one.
    func capture(following manager: AudioDeviceManager?) -> VolumeButtonCapture {
        manager.map { VolumeButtonCapture(server: client, following: $0, logger: Self.logger) }
            ?? VolumeButtonCapture(server: client, logger: Self.logger)
    }

    /// Silent mode on the rig's connection, following `manager` when there is one.
    func silentMode(following manager: AudioDeviceManager?) -> SilentModeMonitor {
        manager.map { SilentModeMonitor(manager: $0, logger: Self.logger) } ?? SilentModeMonitor(server: client, logger: Self.logger)
    }

    /// Waits until `manager` (when there is one) shows `sink` at `level`: capture beside a
    /// manager starts from the manager's view of the server, which follows a change the rig
    /// just made a moment later.
    func waitUntilSeen(by manager: AudioDeviceManager?, _ sink: String, at level: SinkLevel) async throws {
        guard let manager else { return }
        try await withTimeout("the manager seeing \(sink) at \(level)", .seconds(10)) {
            for await mirror in manager.mirrors() {
                if let seen = mirror.sinks.values.first(where: { $0.name == sink }),
                   SinkLevel(volume: seen.volume, isMuted: seen.isMuted) == level { return }
            }
            throw TimedOut(what: "the manager seeing \(sink) at \(level) before it stopped")
        }
    }
}
