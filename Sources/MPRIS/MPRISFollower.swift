import ConcurrencySupport
import DBus
import Logging
import MediaControl

/// The MPRIS players of a session bus, followed across the bus's restarts: an
/// ``MPRISPlayers`` per connection, and when the bus goes away (its players then vanish),
/// another as soon as it is back (its players then appear). One ``events()`` stream and one
/// ``players()`` list for all of them, so that media pausing follows players whatever
/// happens to the bus.
///
/// ``run()`` follows until its task is cancelled, as ``MPRISPlayers/run()`` does.
public final class MPRISFollower: MediaPlayerControl {
    /// The bus followed.
    public let address: BusAddress
    private let logger: Logger
    private let callTimeout: Duration
    private let report: @Sendable (String) -> Void
    /// The first connection's players, made by ``open(_:logger:callTimeout:report:)``, for ``run()``.
    private let first: LockedValue<(connection: BusConnection, players: MPRISPlayers)?>
    private let current = LockedValue<MPRISPlayers?>(nil)
    private let broadcast = Broadcast<MediaPlayerEvent>()

    private init(address: BusAddress, logger: Logger, callTimeout: Duration, report: @escaping @Sendable (String) -> Void,
                 first: (connection: BusConnection, players: MPRISPlayers)?) {
        self.address = address
        self.logger = logger
        self.callTimeout = callTimeout
        self.report = report
        self.first = LockedValue(first)
        current.withLock { $0 = first?.players }
    }

    /// Connects to `address` and reads its players, when the bus answers now; ``run()`` then
    /// follows them, or connects when the bus comes. `report` gets a line when the bus is lost
    /// and when its players are followed again.
    public static func open(_ address: BusAddress, logger: Logger, callTimeout: Duration = .seconds(5),
                            report: @escaping @Sendable (String) -> Void = { _ in }) async -> MPRISFollower {
        let first = await connect(address, logger: logger, callTimeout: callTimeout)
        if first == nil { logger.info("mpris: the session bus does not answer yet; players are followed when it does") }
        return MPRISFollower(address: address, logger: logger, callTimeout: callTimeout, report: report, first: first)
    }

    // MARK: MediaPlayerControl

    public func players() async -> [MediaPlayer] {
        current.withLock { $0 }?.players() ?? []
    }

    public func events() -> AsyncStream<MediaPlayerEvent> {
        broadcast.subscribe()
    }

    public func pause(_ name: String) async throws {
        guard let players = current.withLock({ $0 }) else { throw MPRISCommandError(player: name, command: .pause, reason: .gone) }
        try await players.pause(name)
    }

    public func play(_ name: String) async throws {
        guard let players = current.withLock({ $0 }) else { throw MPRISCommandError(player: name, command: .play, reason: .gone) }
        try await players.play(name)
    }

    // MARK: Following

    /// Follows the players until the calling task is cancelled: those of each connection
    /// until it ends, then waits for the bus (``BusComeback``) and connects again. The
    /// ``events()`` streams end when it returns.
    public func run() async {
        var comeback = BusComeback(address: address)
        var session = first.withLock { held in defer { held = nil }; return held }
        var wasLost = false
        while !Task.isCancelled {
            if let session {
                comeback.reset()
                if wasLost { report("mpris: following \(session.players.players().count) players on the session bus again") }
                await follow(session.players)
                await session.connection.close()
                guard !Task.isCancelled else { break }
                report("mpris: lost the session bus; its players are followed again when it is back")
                wasLost = true
            }
            do { try await comeback.wait() } catch { break }
            session = await Self.connect(address, logger: logger, callTimeout: callTimeout)
        }
        broadcast.finish()
    }

    /// Forwards `players`' events until its run ends (the connection ended, or cancelled):
    /// its players appear first when they are new to the subscribers (after a reconnection).
    private func follow(_ players: MPRISPlayers) async {
        let events = players.events()
        let isNew = current.withLock { held in defer { held = players }; return held !== players }
        if isNew {
            for player in players.players() { broadcast.send(.appeared(player)) }
        }
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in events { self.broadcast.send(event) }
            }
            await players.run()
        }
        current.withLock { $0 = nil }
    }

    private static func connect(_ address: BusAddress, logger: Logger,
                                callTimeout: Duration) async -> (connection: BusConnection, players: MPRISPlayers)? {
        guard let connection = try? await BusConnection.open(address, logger: logger) else { return nil }
        do {
            return (connection, try await MPRISPlayers.open(on: connection, logger: logger, callTimeout: callTimeout))
        } catch {
            logger.info("mpris: cannot follow the players", metadata: ["error": "\(error)"])
            await connection.close()
            return nil
        }
    }
}
