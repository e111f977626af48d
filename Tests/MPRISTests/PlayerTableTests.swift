import DBus
import Logging
import MediaControl
@testable import MPRIS
import Testing

/// The table's decisions, without a bus: what it reads, announces and ignores when signals and
/// answers come in the orders a bus can deliver them.
@Suite("MPRIS player table")
struct PlayerTableTests {
    static let mpv = "org.mpris.MediaPlayer2.mpv"

    /// A read's answer: `status`, and the process 4242.
    static func answer(_ status: PlaybackStatus, identity: String = "mpv") -> PlayerReadOutcome {
        .read(PlayerUpdate(status: status, canPause: true, canPlay: true, identity: identity), processID: 4242)
    }

    /// The reads among `actions`.
    static func reads(_ actions: [PlayerTable.Action]) -> [PlayerRead] {
        actions.compactMap { if case .read(let read) = $0 { read } else { nil } }
    }

    /// The events among `actions`.
    static func events(_ actions: [PlayerTable.Action]) -> [MediaPlayerEvent] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    /// A table where mpv, owned by :1.5, has been read as playing.
    static func tableWithMpv() throws -> PlayerTable {
        var table = PlayerTable()
        let read = try #require(reads(table.handle(.ownerChanged(name: mpv, oldOwner: "", newOwner: ":1.5"))).first)
        _ = table.handle(.readFinished(read, answer(.playing)))
        return table
    }

    @Test("a player appears once read, with its pid and identity; a name outside MPRIS is ignored")
    func appears() throws {
        var table = PlayerTable()
        #expect(table.handle(.ownerChanged(name: "org.mpris.MediaPlayer2", oldOwner: "", newOwner: ":1.3")).isEmpty)
        #expect(table.handle(.ownerChanged(name: "org.mprisx.MediaPlayer2.a", oldOwner: "", newOwner: ":1.3")).isEmpty)
        let actions = table.handle(.ownerChanged(name: Self.mpv, oldOwner: "", newOwner: ":1.5"))
        let read = try #require(Self.reads(actions).first)
        #expect(read.owner == ":1.5" && Self.events(actions).isEmpty && table.players.isEmpty)
        let expected = MediaPlayer(name: Self.mpv, processID: 4242, identity: "mpv", status: .playing)
        #expect(Self.events(table.handle(.readFinished(read, Self.answer(.playing)))) == [.appeared(expected)])
        #expect(table.players == [expected])
    }

    @Test("a change heard while the read is under way is applied on top of its answer, in either order")
    func changeDuringRead() throws {
        var table = PlayerTable()
        let read = try #require(Self.reads(table.handle(.ownerChanged(name: Self.mpv, oldOwner: "", newOwner: ":1.5"))).first)
        // Sent after the read was answered, arriving first: the answer is older.
        #expect(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(status: .paused))).isEmpty)
        let events = Self.events(table.handle(.readFinished(read, Self.answer(.playing))))
        #expect(events.map(\.player?.status) == [.paused])
        // A change that says nothing new announces nothing.
        #expect(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(status: .paused))).isEmpty)
        // One the player sent before, arriving after: the same value as the answer.
        #expect(Self.events(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(canPause: false))))
            .map(\.player?.canPause) == [false])
    }

    @Test("an invalidated property is read again, and its answer announced; an answer to an older read is dropped")
    func invalidation() throws {
        var table = try Self.tableWithMpv()
        let reread = try #require(Self.reads(table.handle(
            .propertiesChanged(sender: ":1.5", update: PlayerUpdate(mustReread: true)))).first)
        #expect(table.players.map(\.status) == [.playing])
        let stale = PlayerRead(name: Self.mpv, owner: ":1.5", generation: reread.generation - 1)
        #expect(table.handle(.readFinished(stale, Self.answer(.stopped))).isEmpty)
        #expect(Self.events(table.handle(.readFinished(reread, Self.answer(.paused)))).map(\.player?.status) == [.paused])
    }

    @Test("a name changing hands is the old player vanishing and the new one appearing; stale owner changes are ignored")
    func ownerChanges() throws {
        var table = try Self.tableWithMpv()
        // Queued while the names were listed: older than what is known.
        #expect(table.handle(.ownerChanged(name: Self.mpv, oldOwner: "", newOwner: ":1.5")).isEmpty)
        #expect(table.handle(.ownerChanged(name: Self.mpv, oldOwner: ":1.2", newOwner: "")).isEmpty)
        let actions = table.handle(.ownerChanged(name: Self.mpv, oldOwner: ":1.5", newOwner: ":1.9"))
        #expect(Self.events(actions) == [.vanished(name: Self.mpv)] && table.players.isEmpty)
        let read = try #require(Self.reads(actions).first)
        #expect(read.owner == ":1.9")
        // The old owner's signals no longer reach the player.
        #expect(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(status: .stopped))).isEmpty)
        #expect(Self.events(table.handle(.readFinished(read, Self.answer(.paused)))).map(\.player?.status) == [.paused])
        #expect(Self.events(table.handle(.ownerChanged(name: Self.mpv, oldOwner: ":1.9", newOwner: ""))) == [.vanished(name: Self.mpv)])
        #expect(table.players.isEmpty && table.entries.isEmpty)
    }

    @Test("a player that cannot be read is left out and logged, until it announces a status")
    func unreadable() throws {
        var table = PlayerTable()
        let read = try #require(Self.reads(table.handle(.ownerChanged(name: Self.mpv, oldOwner: "", newOwner: ":1.5"))).first)
        let actions = table.handle(.readFinished(read, .failed(.timedOut(.seconds(1)))))
        #expect(Self.events(actions).isEmpty && table.players.isEmpty)
        #expect(actions.contains { if case .log(.warning, let line) = $0 { line.contains("did not answer") } else { false } })
        // Something other than a status says nothing to read again for.
        #expect(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(canPlay: true))).isEmpty)
        let again = try #require(Self.reads(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(status: .playing)))).first)
        #expect(Self.events(table.handle(.readFinished(again, Self.answer(.playing)))).map(\.player?.status) == [.playing])
    }

    @Test("one connection owning two MPRIS names: its signal changes both")
    func twoNamesOneOwner() throws {
        var table = try Self.tableWithMpv()
        let instance = "org.mpris.MediaPlayer2.mpv.instance42"
        let read = try #require(Self.reads(table.handle(.ownerChanged(name: instance, oldOwner: "", newOwner: ":1.5"))).first)
        _ = table.handle(.readFinished(read, Self.answer(.playing)))
        let events = Self.events(table.handle(.propertiesChanged(sender: ":1.5", update: PlayerUpdate(status: .paused))))
        #expect(events.map(\.player?.name) == [Self.mpv, instance])
        #expect(table.players.map(\.status) == [.paused, .paused])
    }

    @Test("PropertiesChanged arguments: values of the wrong type are problems, invalidated followed properties a read")
    func propertiesChangedArguments() throws {
        let update = try #require(PlayerUpdate(propertiesChanged: [
            .string(MPRISNames.playerInterface),
            .variantDictionary([("PlaybackStatus", .uint32(1)), ("CanPause", .boolean(false)), ("Rate", .double(1))]),
            .strings(["CanPlay"]),
        ]))
        #expect(update.status == nil && update.canPause == false && update.mustReread && update.problems.count == 1)
        let metadataOnly = try #require(PlayerUpdate(propertiesChanged: [
            .string(MPRISNames.playerInterface), .variantDictionary([("Metadata", .variantDictionary([]))]), .strings([]),
        ]))
        #expect(metadataOnly.isEmpty)
        #expect(PlayerUpdate(propertiesChanged: [.string("org.example.Other"), .variantDictionary([]), .strings([])]) == nil)
    }
}
