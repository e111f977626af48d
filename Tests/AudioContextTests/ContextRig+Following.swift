import AudioContext
import RouteKit

/// What silent mode or volume capture follows in a test: the server itself, or a running manager's mirror of it
/// (as in the daemon).
enum Following: String, CaseIterable, Sendable {
    /// It reads the server itself.
    case server
    /// It follows an ``AudioDeviceManager`` running on the rig's connection.
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

    /// Silent mode on the rig's connection, following `manager` when there is one.
    func silentMode(following manager: AudioDeviceManager?) -> SilentModeMonitor {
        manager.map { SilentModeMonitor(manager: $0, logger: Self.logger) } ?? SilentModeMonitor(server: client, logger: Self.logger)
    }
}

extension ContextRig {
    /// Volume capture on the rig's connection, following `manager`'s mirror when there is one.
    func capture(following manager: AudioDeviceManager?) -> VolumeButtonCapture {
        manager.map { VolumeButtonCapture(manager: $0, server: client, logger: Self.logger) }
            ?? VolumeButtonCapture(server: client, logger: Self.logger)
    }
}
