import ConcurrencySupport
import Glibc

/// Players of this process that media pausing pauses and resumes as it does MPRIS players:
/// an application that plays without MPRIS registers its player here and keeps its status
/// current. Their streams are matched by process id: this process's, unless told otherwise.
public final class InProcessPlayers: MediaPlayerControl {
    /// What RouteKit may ask a registered player to do.
    public struct Commands: Sendable {
        /// Pause.
        public var pause: @Sendable () async throws -> Void
        /// Play from where it paused.
        public var play: @Sendable () async throws -> Void

        /// Commands with these actions.
        public init(pause: @escaping @Sendable () async throws -> Void, play: @escaping @Sendable () async throws -> Void) {
            self.pause = pause
            self.play = play
        }
    }

    /// Asked to command a player that is not registered.
    public struct NotRegistered: Error, Hashable, Sendable, CustomStringConvertible {
        /// The name asked for.
        public var name: String
        /// "no player NAME is registered".
        public var description: String { "no player \(name) is registered" }
    }

    private struct State {
        var players: [String: (player: MediaPlayer, commands: Commands)] = [:]
    }

    private let state = LockedValue(State())
    private let broadcast = Broadcast<MediaPlayerEvent>()

    /// No players yet.
    public init() {}

    /// Registers (or replaces) a player named `name`, whose streams come from `processID`
    /// (this process, unless it plays through a child).
    public func register(_ name: String, identity: String? = nil, processID: UInt32 = UInt32(getpid()),
                         status: PlaybackStatus, commands: Commands) {
        let player = MediaPlayer(name: name, processID: processID, identity: identity, status: status)
        state.withLock { state in
            let replaced = state.players.updateValue((player, commands), forKey: name) != nil
            broadcast.send(replaced ? .changed(player) : .appeared(player))
        }
    }

    /// Says that the player `name` now plays, pauses or stopped. The player must say so after
    /// every change, RouteKit's own requests included: that is how RouteKit tells its own
    /// pause from the user's.
    public func update(_ name: String, status: PlaybackStatus) {
        state.withLock { state in
            guard var entry = state.players[name], entry.player.status != status else { return }
            entry.player.status = status
            state.players[name] = entry
            broadcast.send(.changed(entry.player))
        }
    }

    /// Removes the player `name`.
    public func unregister(_ name: String) {
        state.withLock { state in
            guard state.players.removeValue(forKey: name) != nil else { return }
            broadcast.send(.vanished(name: name))
        }
    }

    /// The registered players.
    public func players() async -> [MediaPlayer] {
        state.withLock { $0.players.values.map(\.player).sorted { $0.name < $1.name } }
    }

    /// Every registration, status change and removal from now on. Changes are sent under
    /// the players' lock, so every subscriber sees them in the order they were made.
    public func events() -> AsyncStream<MediaPlayerEvent> {
        broadcast.subscribe()
    }

    /// Runs the player's pause command.
    public func pause(_ name: String) async throws {
        try await commands(of: name).pause()
    }

    /// Runs the player's play command.
    public func play(_ name: String) async throws {
        try await commands(of: name).play()
    }

    private func commands(of name: String) throws(NotRegistered) -> Commands {
        guard let commands = state.withLock({ $0.players[name]?.commands }) else { throw NotRegistered(name: name) }
        return commands
    }
}
