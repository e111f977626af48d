import ConcurrencySupport
import DBus
import Logging
import MediaControl

/// The MPRIS media players of a session bus, as a ``MediaPlayerControl``: every
/// `org.mpris.MediaPlayer2.*` name, with its `PlaybackStatus`, `CanPause`, `CanPlay`,
/// `Identity` and the pid of the process that owns it.
///
/// ```swift
/// let connection = try await BusConnection.open(.session)
/// let players = try await MPRISPlayers.open(on: connection, logger: logger)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await players.run() }         // follows the bus until cancelled
///     for await event in players.events() { … }     // appeared, changed, vanished
/// }
/// ```
///
/// ``open(on:logger:callTimeout:)`` subscribes to the bus's signals, then lists and reads the
/// players there. ``run()`` follows the bus from then on; nothing changes while it is not
/// running (the signals wait in their subscriptions). It ends when its task is cancelled or
/// the connection ends, and then every player is announced as vanished and every event stream
/// ends.
///
/// Why a `run()` and no task of its own: following the bus takes a task for as long as the
/// players are followed, and one stored here would outlive whoever stopped caring. As
/// swift-service-lifecycle services do, the caller runs it in a task group it owns, which
/// also bounds the reads it starts: each is a child task of `run()`.
///
/// A player that misbehaves (no player interface, properties of the wrong type, no answer
/// within `callTimeout`) is logged and left out, or keeps its last values; the others go on.
public final class MPRISPlayers: MediaPlayerControl {
    /// The two subscriptions ``run()`` drains, taken by the first call to it.
    struct Subscriptions: Sendable {
        let owners: AsyncStream<BusSignalMessage>
        let properties: AsyncStream<BusSignalMessage>
    }

    let connection: BusConnection
    let logger: Logger
    let callTimeout: Duration
    let state: PlayersState
    let reader: PlayerReader
    let subscriptions: LockedValue<Subscriptions?>

    private init(connection: BusConnection, logger: Logger, callTimeout: Duration, state: PlayersState,
                 subscriptions: Subscriptions) {
        self.connection = connection
        self.state = state
        self.logger = logger
        self.callTimeout = callTimeout
        self.reader = PlayerReader(connection: connection, timeout: callTimeout)
        self.subscriptions = LockedValue(subscriptions)
    }

    /// Finds the players on `connection`'s bus and reads them, each within `callTimeout` (a
    /// player that does not answer delays this by that much, and is left out). Throws the
    /// bus's error when it refuses the subscriptions or the list of names.
    public static func open(on connection: BusConnection, logger: Logger,
                            callTimeout: Duration = .seconds(5)) async throws -> MPRISPlayers {
        // Subscribed before the names are listed: what changes while they are listed and read
        // waits in these streams, for run(), and nothing is lost between.
        // A PropertiesChanged is read only when it has its signature and comes from a player's
        // owner, and only the followed properties in it: anything else is dropped unread.
        let state = PlayersState()
        let subscriptions = Subscriptions(
            owners: try await connection.signals(matching: MPRISNames.ownerChangesRule, filter: MPRISNames.ownerChangesFilter),
            properties: try await connection.signals(matching: MPRISNames.propertyChangesRule,
                                                     filter: MPRISNames.propertyChangesFilter { state.isOwner($0) }))
        let players = MPRISPlayers(connection: connection, logger: logger, callTimeout: callTimeout, state: state,
                                   subscriptions: subscriptions)
        let names = try await connection.call(MPRISNames.listNames).first?.stringArrayValue ?? []
        var reads: [PlayerRead] = []
        for name in names.filter(MPRISNames.isPlayerName).sorted() {
            guard let owner = try await connection.owner(of: name) else { continue }
            reads += players.handle(.ownerChanged(name: name, oldOwner: "", newOwner: owner))
        }
        // Every player read at once, so that a slow one delays the others by nothing.
        await withTaskGroup(of: [PlayerRead].self) { group in
            for read in reads {
                group.addTask { players.handle(await players.perform(read)) }
            }
            while let more = await group.next() {
                for read in more {
                    group.addTask { players.handle(await players.perform(read)) }
                }
            }
        }
        logger.debug("mpris: \(players.state.players.count) players on \(connection.address)")
        return players
    }

    /// The players now, by name: those whose properties have been read. It agrees with the
    /// events delivered so far.
    public func players() -> [MediaPlayer] {
        state.players
    }

    /// Every change from now on, in order: a player appeared (read for the first time),
    /// changed (status, `CanPause`, `CanPlay`, `Identity`), or vanished (it left the bus, or
    /// its name changed hands: the new owner then appears). Every subscriber gets every event.
    /// The stream ends when ``run()`` ends.
    public func events() -> AsyncStream<MediaPlayerEvent> {
        state.subscribe()
    }

    /// Asks the player `name` to pause (`Pause`), and returns once it has answered. Throws
    /// ``MPRISCommandError``: it is not on the bus, says it cannot pause, refused, or did not
    /// answer in time.
    public func pause(_ name: String) async throws(MPRISCommandError) {
        try await send(.pause, to: name)
    }

    /// Asks the player `name` to play (`Play`), and returns once it has answered. Throws
    /// ``MPRISCommandError`` as ``pause(_:)`` does.
    public func play(_ name: String) async throws(MPRISCommandError) {
        try await send(.play, to: name)
    }

    /// Applies `input`, logs what it says to, and returns the reads it asks for.
    func handle(_ input: PlayerTable.Input) -> [PlayerRead] {
        var reads: [PlayerRead] = []
        for action in state.handle(input) {
            switch action {
            case .read(let read): reads.append(read)
            case .log(let level, let message): logger.log(level: level, "mpris: \(message)")
            case .emit: break  // emitted by the state, under its lock
            }
        }
        return reads
    }

    /// Reads a player, as the input its outcome is.
    func perform(_ read: PlayerRead) async -> PlayerTable.Input {
        .readFinished(read, await reader.read(read))
    }

    private func send(_ command: MPRISCommandError.Command, to name: String) async throws(MPRISCommandError) {
        func failure(_ reason: MPRISCommandError.Reason) -> MPRISCommandError {
            MPRISCommandError(player: name, command: command, reason: reason)
        }
        guard let player = state.player(named: name) else { throw failure(.gone) }
        guard command == .pause ? player.canPause : player.canPlay else { throw failure(.notSupported) }
        do {
            // To the well-known name: should it have changed hands, the bus takes the call to
            // its owner now.
            _ = try await connection.call(MPRISNames.command(command.rawValue, on: name, timeout: callTimeout))
        } catch let error as BusError {
            throw failure(await reason(for: error, player: name))
        } catch {
            throw failure(.cancelled)
        }
    }

    /// What a bus error answering a command means.
    private func reason(for error: BusError, player name: String) async -> MPRISCommandError.Reason {
        if connection.isDisconnected { return .disconnected }
        if MPRISNames.goneErrorNames.contains(error.name) { return .gone }
        guard error.name == BusError.noReplyName else { return .refused(error) }
        // NoReply is both "no answer in time" and "left the bus without answering".
        let owner = try? await connection.owner(of: name)
        return owner == nil ? .gone : .timedOut(callTimeout)
    }
}
