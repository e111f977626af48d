import PulseAudio
import RouteKit
import ServiceLifecycle
import TextSupport

/// `routectl daemon`'s one service: an ``AudioDeviceManager``'s run, from start to graceful
/// shutdown. It writes a line for each of the manager's events; on graceful shutdown
/// (SIGTERM, SIGINT) the manager puts back what it changed, and the service returns.
package struct RoutingService: Service {
    /// The manager it runs; it must not be started yet.
    package let manager: AudioDeviceManager
    /// Where the manager's server is, for the first line.
    package let serverDescription: String
    /// Where lines go (standard error).
    package let write: @Sendable (String) -> Void
    /// Lines written right after the first ones, such as where the D-Bus API is served.
    package var announcements: [String] = []

    /// A service that runs `manager`, describing its server as `serverDescription` in the
    /// first line, and writes its lines through `write`.
    package init(manager: AudioDeviceManager, serverDescription: String, write: @escaping @Sendable (String) -> Void) {
        self.manager = manager
        self.serverDescription = serverDescription
        self.write = write
    }

    /// Runs the manager until graceful shutdown. Throws
    /// ``DaemonFailure/requestFailed(_:)`` when the server cannot be read at start, and
    /// `CancellationError` when the service group cancelled it (a stop that hung).
    package func run() async throws {
        // Subscribed before the run: the first event is the state, then the first route.
        let events = manager.events()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends when the manager's run ends the stream, after its last event (the
                // route it restored).
                var announced = false
                var outage = ServerOutageLines()
                for await event in events {
                    if case .state = event, !announced {
                        announced = true
                        await announce()
                        continue
                    }
                    if case .connectionChanged(let connection) = event {
                        // The loss once and the return once, not every attempt between.
                        if let sentence = outage.sentence(for: connection) { write("server: " + sentence) }
                        continue
                    }
                    write(RouteEventLine.text(event))
                }
            }
            group.addTask {
                do {
                    // Returns after graceful shutdown (SIGTERM, SIGINT), once it has put back
                    // what it changed.
                    try await manager.run()
                } catch let error as PulseError {
                    throw DaemonFailure.requestFailed(error)
                }
            }
            try await group.waitForAll()
        }
        write("daemon: stopped")
        try Task.checkCancellation()
    }

    /// The first lines: what the daemon prefers, preferences that match no device now, then
    /// the ``announcements``.
    private func announce() async {
        await announceRouting()
        for line in announcements { write(TerminalText.escaped(line)) }
    }

    private func announceRouting() async {
        let serverDescription = TerminalText.escaped(serverDescription)
        let preferences = manager.preferences
        guard !preferences.isEmpty else {
            write("daemon: running on \(serverDescription) with no preferences: the server's own choice stands; routes are only reported")
            return
        }
        write("daemon: running on \(serverDescription), preferring "
              + TerminalText.escaped(preferences.map(\.description).joined(separator: ", then ")))
        // Device ids not present are named from the manager's own first reading, once it has
        // one: asked earlier, a manager still starting answered with no devices at all (every
        // id "not present"), and one not started yet read every device from the server once
        // more. Kinds need nothing.
        let ids = preferences.compactMap { if case .device(let id) = $0 { id } else { nil } }
        guard !ids.isEmpty else { return }
        await manager.pastFirstReading()
        let devices = (try? await manager.allDevices) ?? []
        for id in ids where !devices.contains(where: { $0.id == id }) {
            write("daemon: no device \"\(TerminalText.escaped(id.rawValue))\" is present now; it is used when it appears ('routectl list' shows the ids)")
        }
    }
}
