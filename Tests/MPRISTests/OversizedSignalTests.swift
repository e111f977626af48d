import DBus
import MediaControl
import MPRIS
import TestSupport
import Testing

/// A `PropertiesChanged` over ``BusReadLimits/signals`` is dropped before it is read: the
/// player's state stays as it was, and its next change is followed.
@Suite("MPRIS players: oversized signals")
struct OversizedSignalTests {
    /// Has the fake emit `PropertiesChanged(player interface, changed, [])` (dbusmock's `EmitSignal`).
    static func emit(_ changed: [(String, BusValue)], by fake: FakePlayer, through connection: BusConnection) async throws {
        let arguments: [BusValue] = [.variant(.string("org.mpris.MediaPlayer2.Player")),
                                     .variant(.variantDictionary(changed)), .variant(.strings([]))]
        _ = try await connection.call(BusCall(
            destination: fake.name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Mock",
            member: "EmitSignal",
            arguments: [.string("org.freedesktop.DBus.Properties"), .string("PropertiesChanged"), .string("sa{sv}as"),
                        .array(element: .variant, arguments)],
            timeout: .seconds(30)))
    }

    @Test("a PropertiesChanged whose values pass the limits is ignored; the state stays, and the next change is followed")
    func oversizedIgnored() async throws {
        try await PrivateSessionBus.withBus { bus in
            let fake = try await FakePlayer.start(on: bus, name: "big")
            try await withPlayers(on: bus) { players, client, _ in
                #expect(players.players().map(\.status) == [.playing])
                let events = players.events()
                // A valid status beside 20 000 strings (1.3 MB once built): dropped whole, unread.
                let many = BusValue.strings(Array(repeating: "x", count: 20_000))
                try await Self.emit([("PlaybackStatus", .string("Paused")), ("CanPause", many)], by: fake, through: client)
                try await Self.emit([("PlaybackStatus", .string("Stopped"))], by: fake, through: client)
                let seen = try await collectEvents("the player stopped", from: events) { $0.player?.status == .stopped }
                // Never paused: the oversized announcement was not taken.
                #expect(seen.map { $0.player?.status } == [.stopped], "\(seen)")
                #expect(players.players().map(\.status) == [.stopped])
                #expect(players.players().map(\.canPause) == [true])
            }
        }
    }
}
