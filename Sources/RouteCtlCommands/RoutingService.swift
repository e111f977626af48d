import PulseAudio
import RouteKit
import ServiceLifecycle

/// `routectl daemon`'s one service: an ``AudioDeviceManager`` from start to stop. It starts
/// the manager, writes a line for each of its events, and on graceful shutdown (SIGTERM,
/// SIGINT) stops it, which puts back what it changed, then returns.
struct RoutingService: Service {
    /// The manager it runs; it must not be started yet.
    let manager: AudioDeviceManager
    /// Where the manager's server is, for the first line.
    let serverDescription: String
    /// Where lines go (standard error).
    let write: @Sendable (String) -> Void

    /// Starts the manager, follows it until graceful shutdown, stops it. Throws
    /// ``RouteCtlFailure/requestFailed(_:)`` when the server cannot be read at start, and
    /// `CancellationError` when the service group cancelled it (a stop that hung).
    func run() async throws {
        // Subscribed before start, so that the first route is reported too.
        let events = await manager.events()
        do {
            try await manager.start()
        } catch let error as PulseError {
            throw RouteCtlFailure.requestFailed(error)
        }
        await announce()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends when stop() ends the stream, after its last event (the route it restored).
                for await event in events { write(RouteEventLine.text(event)) }
            }
            group.addTask {
                // Throws only when the task is cancelled (graceful shutdown took too long):
                // stop all the same, as far as a cancelled task can.
                try? await gracefulShutdown()
                await manager.stop()
            }
        }
        write("daemon: stopped")
        try Task.checkCancellation()
    }

    /// The first lines: what the daemon prefers, and preferences that match no device now.
    private func announce() async {
        let serverDescription = TerminalText.escaped(serverDescription)
        let preferences = await manager.preferences
        guard !preferences.isEmpty else {
            write("daemon: running on \(serverDescription) with no preferences: the server's own choice stands; routes are only reported")
            return
        }
        write("daemon: running on \(serverDescription), preferring "
              + TerminalText.escaped(preferences.map(\.description).joined(separator: ", then ")))
        let devices = await manager.allDevices
        for case .device(let id) in preferences where !devices.contains(where: { $0.id == id }) {
            write("daemon: no device \"\(TerminalText.escaped(id.rawValue))\" is present now; it is used when it appears ('routectl list' shows the ids)")
        }
    }
}
