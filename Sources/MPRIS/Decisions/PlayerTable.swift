import Logging
import MediaControl

/// The MPRIS players of a bus as a value: which connection owns each name, what each player
/// is doing, and which reads are under way. Every change goes through ``handle(_:)``, which
/// returns what to do (announce, read, log); it performs nothing itself.
///
/// What it can rely on, and what it cannot:
/// - Signals of one subscription arrive in the order they were sent; answers to reads and
///   the two subscriptions (owners, properties) are not ordered against each other.
/// - So a player is read whenever its owner changes, and what `PropertiesChanged` says while
///   that read is under way is kept and applied on top of its answer. That is right in either
///   order: a value sent before the read was answered is what the read found too (or a later
///   signal corrects it), and one sent after is newer. A property named in
///   `invalidated_properties` is read again.
/// - A `NameOwnerChanged` is applied only when its old owner is the one known: older ones,
///   queued while the names were listed at open, say nothing new.
/// - A player that cannot be read (no player interface, a wrong type of `PlaybackStatus`, no
///   answer in time) is left out of ``players`` and logged; the others go on. Its next
///   `PropertiesChanged` about the player interface reads it again.
struct PlayerTable: Sendable {
    /// One MPRIS name on the bus.
    struct Entry: Hashable, Sendable {
        /// The unique name of the connection that owns it.
        var owner: String
        /// The player as last read, or nil until a read has succeeded.
        var player: MediaPlayer?
        /// The generation of the read under way, if one is.
        var reading: UInt64?
        /// What `PropertiesChanged` said while that read was under way, merged in order.
        var heard: PlayerUpdate?
    }

    /// What the table decides from.
    enum Input: Hashable, Sendable {
        /// The name's owner changed from `oldOwner` to `newOwner` (`""` for none): a
        /// `NameOwnerChanged`, or at open a listed name with its owner (from `""`).
        case ownerChanged(name: String, oldOwner: String, newOwner: String)
        /// The object of connection `sender` announced `update`.
        case propertiesChanged(sender: String, update: PlayerUpdate)
        /// A read asked for with ``Action/read(_:)`` ended.
        case readFinished(PlayerRead, PlayerReadOutcome)
    }

    /// What the table asks its owner to do, in order.
    enum Action: Hashable, Sendable {
        /// Tell every subscriber.
        case emit(MediaPlayerEvent)
        /// Read a player, and hand the outcome back as ``Input/readFinished(_:_:)``.
        case read(PlayerRead)
        /// Write a line to the log.
        case log(Logger.Level, String)
    }

    /// Every MPRIS name with an owner, by name.
    private(set) var entries: [String: Entry] = [:]
    private var nextGeneration: UInt64 = 0

    /// The players that have been read, by name.
    var players: [MediaPlayer] {
        entries.values.compactMap(\.player).sorted { $0.name < $1.name }
    }

    /// The player `name`, if it has been read.
    func player(named name: String) -> MediaPlayer? {
        entries[name]?.player
    }

    /// Whether the connection `owner` owns an MPRIS name: the only senders whose
    /// `PropertiesChanged` is read.
    func isOwner(_ owner: String) -> Bool {
        entries.values.contains { $0.owner == owner }
    }

    /// Applies `input` and returns what to do.
    mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .ownerChanged(let name, let oldOwner, let newOwner):
            ownerChanged(name, from: oldOwner, to: newOwner)
        case .propertiesChanged(let sender, let update):
            propertiesChanged(by: sender, update)
        case .readFinished(let read, let outcome):
            readFinished(read, outcome)
        }
    }

    /// Forgets every player, announcing each as vanished: the source has closed.
    mutating func removeAll() -> [Action] {
        let gone = players.map(\.name)
        entries = [:]
        return gone.map { .emit(.vanished(name: $0)) }
    }

    private mutating func ownerChanged(_ name: String, from oldOwner: String, to newOwner: String) -> [Action] {
        guard MPRISNames.isPlayerName(name) else { return [] }
        let known = entries[name]?.owner ?? ""
        // Already known (listed at open, after this signal was queued), or older than what
        // is known: nothing new.
        guard newOwner != known, oldOwner == known else { return [] }
        var actions: [Action] = []
        // A new owner is a new player (another process, perhaps): the old one has gone.
        if entries.removeValue(forKey: name)?.player != nil {
            actions.append(.emit(.vanished(name: name)))
        }
        if !newOwner.isEmpty {
            entries[name] = Entry(owner: newOwner)
            actions.append(startRead(of: name))
        }
        return actions
    }

    private mutating func propertiesChanged(by sender: String, _ update: PlayerUpdate) -> [Action] {
        var actions: [Action] = []
        // One connection may own several MPRIS names for its one object.
        for name in entries.keys.sorted() where entries[name]?.owner == sender {
            guard var entry = entries[name] else { continue }
            for problem in update.problems {
                actions.append(.log(.warning, "\(name) (\(sender)): \(problem); the value is ignored"))
            }
            guard !update.isEmpty else { continue }
            if entry.reading != nil {
                entry.heard = entry.heard.map { $0.merged(with: update) } ?? update
                entries[name] = entry
                continue
            }
            guard let player = entry.player, !update.mustReread else {
                // Never read (its reads failed) or told to read again: read, then apply this.
                guard entry.player != nil || update.status != nil || update.mustReread else { continue }
                entry.heard = update
                entries[name] = entry
                actions.append(startRead(of: name))
                continue
            }
            let changed = update.applied(to: player)
            entry.player = changed
            entries[name] = entry
            if changed != player { actions.append(.emit(.changed(changed))) }
        }
        return actions
    }

    private mutating func readFinished(_ read: PlayerRead, _ outcome: PlayerReadOutcome) -> [Action] {
        guard var entry = entries[read.name], entry.owner == read.owner, entry.reading == read.generation else {
            return []  // an answer for an owner or a read that has been replaced
        }
        let heard = entry.heard
        entry.reading = nil
        entry.heard = nil
        let before = entry.player
        var actions: [Action] = []
        switch outcome {
        case .read(let properties, let processID):
            for problem in properties.problems {
                actions.append(.log(.warning, "\(read.name) (\(read.owner)): \(problem)"))
            }
            // A player is listed once a read finds its PlaybackStatus; CanPause and CanPlay
            // it leaves out or types wrongly are taken as true: it is asked, and its refusal
            // reported, rather than skipped.
            if let base = before ?? properties.status.map({ MediaPlayer(name: read.name, status: $0) }) {
                var player = properties.applied(to: base)
                player.processID = processID ?? base.processID
                entry.player = player
            } else {
                actions.append(.log(.warning, "\(read.name) (\(read.owner)) is left out: its PlaybackStatus cannot be read"))
            }
        case .failed(let failure):
            let level: Logger.Level = failure == .gone ? .debug : .warning
            let consequence = before == nil ? "it is left out until it announces a change" : "its last values are kept"
            actions.append(.log(level, "\(read.name) (\(read.owner)): \(failure); \(consequence)"))
        }
        if let heard, let player = entry.player {
            entry.player = heard.applied(to: player)
        }
        entries[read.name] = entry
        if let player = entry.player, player != before {
            actions.append(.emit(before == nil ? .appeared(player) : .changed(player)))
        }
        // It was told, while this read was under way, that a value this read may predate
        // is invalid.
        if heard?.mustReread == true, entry.player != nil {
            actions.append(startRead(of: read.name))
        }
        return actions
    }

    /// Marks a read of `name` under way and asks for it.
    private mutating func startRead(of name: String) -> Action {
        nextGeneration += 1
        entries[name]?.reading = nextGeneration
        return .read(PlayerRead(name: name, owner: entries[name]?.owner ?? "", generation: nextGeneration))
    }
}
