import ConcurrencySupport
import DBus
import Logging
import MediaControl
import MPRIS
import TestSupport

/// The first event of `events` that matches, with a time limit that guards against hangs.
func firstEvent(_ what: String, in events: AsyncStream<MediaPlayerEvent>, timeout: Duration = .seconds(15),
                where matches: @escaping @Sendable (MediaPlayerEvent) -> Bool) async throws -> MediaPlayerEvent {
    try await withTimeout(what, timeout) {
        for await event in events where matches(event) { return event }
        throw TimedOut(what: "\(what) (the event stream ended)")
    }
}

/// The events of `events`, in order, up to and including the first that matches `last`.
func collectEvents(_ what: String, from events: AsyncStream<MediaPlayerEvent>, timeout: Duration = .seconds(15),
                   through last: @escaping @Sendable (MediaPlayerEvent) -> Bool) async throws -> [MediaPlayerEvent] {
    try await withTimeout(what, timeout) {
        var collected: [MediaPlayerEvent] = []
        for await event in events {
            collected.append(event)
            if last(event) { return collected }
        }
        throw TimedOut(what: "\(what) (the event stream ended); got \(collected)")
    }
}

extension MediaPlayerEvent {
    /// The player it carries, if any.
    var player: MediaPlayer? {
        switch self {
        case .appeared(let player), .changed(let player): player
        case .vanished: nil
        }
    }

    /// The name of the player it is about.
    var name: String {
        switch self {
        case .appeared(let player), .changed(let player): player.name
        case .vanished(let name): name
        }
    }
}

/// Opens ``MPRISPlayers`` on `bus` (with a log that `body` can read), runs it while `body`
/// runs with it and a second connection to act from, then stops it and closes both.
func withPlayers<Result: Sendable>(
    on bus: PrivateSessionBus, callTimeout: Duration = .seconds(5),
    _ body: @escaping @Sendable (MPRISPlayers, BusConnection, RecordedLog) async throws -> Result
) async throws -> Result {
    let connection = try await BusConnection.open(.address(bus.address))
    let client = try await BusConnection.open(.address(bus.address))
    let log = RecordedLog()
    do {
        let players = try await MPRISPlayers.open(on: connection, logger: log.logger, callTimeout: callTimeout)
        let result = try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { await players.run() }
            defer { group.cancelAll() }
            return try await body(players, client, log)
        }
        await client.close()
        await connection.close()
        return result
    } catch {
        await client.close()
        await connection.close()
        throw error
    }
}

/// Log lines of warning and above, kept for a test to read.
final class RecordedLog: Sendable {
    private let lines = LockedValue<[String]>([])

    /// A logger that records here (and prints nothing).
    var logger: Logger {
        Logger(label: "routekit.test.mpris") { _ in Handler(log: self) }
    }

    /// What was recorded so far.
    var all: [String] { lines.withLock { $0 } }

    fileprivate func record(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.record("\(event.level): \(event.message)")
        }
    }
}
