import DBus
import MediaControl
import MPRIS
import TestSupport
import Testing

/// MPRISPlayers against fake players (python3-dbusmock with the repository's template) on a
/// private bus: finding them, following them, commanding them, and going on past broken ones.
@Suite("MPRIS players on a bus, against fake players")
struct FakePlayerTests {
    @Test("a player that appears after open is announced with its status, identity and its process's pid")
    func appearsAfterOpen() async throws {
        try await PrivateSessionBus.withBus { bus in
            try await withPlayers(on: bus) { players, _, _ in
                #expect(players.players().isEmpty)
                let events = players.events()
                let fake = try await FakePlayer.start(on: bus, name: "late", identity: "Late Player")
                let event = try await firstEvent("the late player to appear", in: events) { $0.name == fake.name }
                let expected = MediaPlayer(name: fake.name, processID: fake.processID, identity: "Late Player",
                                           status: .playing, canPause: true, canPlay: true)
                #expect(event == .appeared(expected))
                #expect(players.players() == [expected])
            }
        }
    }

    @Test("PlaybackStatus changes are followed, also when only invalidated; every subscriber gets every event")
    func statusChanges() async throws {
        try await PrivateSessionBus.withBus { bus in
            let fake = try await FakePlayer.start(on: bus, name: "one")
            try await withPlayers(on: bus) { players, client, _ in
                // Present before open: listed by open itself.
                #expect(players.players().map(\.status) == [.playing])
                let first = players.events(), second = players.events()
                try await fake.setStatus("Paused", through: client)
                try await fake.invalidateStatus("Stopped", through: client)
                for events in [first, second] {
                    let seen = try await collectEvents("Paused, then Stopped", from: events) { $0.player?.status == .stopped }
                    #expect(seen == [.changed(listed(fake, .paused)), .changed(listed(fake, .stopped))])
                }
                #expect(players.players().map(\.status) == [.stopped])
            }
        }
    }

    @Test("pause and play reach the player named and no other; the player's new status comes back as events")
    func pauseAndPlay() async throws {
        try await PrivateSessionBus.withBus { bus in
            let one = try await FakePlayer.start(on: bus, name: "one")
            let two = try await FakePlayer.start(on: bus, name: "two")
            try await withPlayers(on: bus) { players, client, _ in
                let events = players.events()
                try await players.pause(one.name)
                #expect(try await one.calls(through: client) == ["Pause"])
                _ = try await firstEvent("one paused", in: events) { $0 == .changed(listed(one, .paused)) }
                try await players.play(one.name)
                #expect(try await one.calls(through: client) == ["Pause", "Play"])
                _ = try await firstEvent("one playing again", in: events) { $0.name == one.name && $0.player?.status == .playing }
                #expect(try await two.calls(through: client).isEmpty)
                #expect(players.players().map(\.status) == [.playing, .playing])
            }
        }
    }

    @Test("commands that fail say which player and why: gone, refused, cannot pause (then it is not asked)")
    func commandErrors() async throws {
        try await PrivateSessionBus.withBus { bus in
            let refusing = try await FakePlayer.start(on: bus, name: "refusing", fault: .refuses)
            let unpausable = try await FakePlayer.start(on: bus, name: "unpausable", canPause: false)
            try await withPlayers(on: bus) { players, client, _ in
                let nobody = await #expect(throws: MPRISCommandError.self) { try await players.pause("org.mpris.MediaPlayer2.nobody") }
                #expect(nobody == MPRISCommandError(player: "org.mpris.MediaPlayer2.nobody", command: .pause, reason: .gone))

                let refused = await #expect(throws: MPRISCommandError.self) { try await players.pause(refusing.name) }
                if case .refused(let busError) = refused?.reason {
                    #expect(busError.name == "org.routekit.Test.MPRISMock.Error.Refused")
                } else {
                    Issue.record("expected a refusal, got \(String(describing: refused))")
                }
                #expect(refused?.description.hasPrefix("could not pause \(refusing.name): it refused") == true)

                let unsupported = await #expect(throws: MPRISCommandError.self) { try await players.pause(unpausable.name) }
                #expect(unsupported?.reason == .notSupported)
                let calls = try await unpausable.calls(through: client)
                #expect(calls.isEmpty)
                #expect(players.players().map(\.status) == [.playing, .playing])
            }
        }
    }

    @Test("a player leaving the bus vanishes; one taking over its name appears as a new player; the other stays")
    func vanishingAndOwnerChange() async throws {
        try await PrivateSessionBus.withBus { bus in
            let one = try await FakePlayer.start(on: bus, name: "one")
            let two = try await FakePlayer.start(on: bus, name: "two")
            try await withPlayers(on: bus) { players, _, _ in
                #expect(players.players().map(\.name) == [one.name, two.name])
                let events = players.events()
                one.stop()
                #expect(try await firstEvent("one to vanish", in: events) { $0.name == one.name } == .vanished(name: one.name))
                #expect(players.players().map(\.name) == [two.name])

                // A restarted player takes the name over from the running one.
                let successor = try await FakePlayer.start(on: bus, name: "two", identity: "Successor")
                let seen = try await collectEvents("two to change hands", from: events) { $0.name == two.name && $0.player != nil }
                #expect(seen == [.vanished(name: two.name),
                                 .appeared(MediaPlayer(name: two.name, processID: successor.processID, identity: "Successor",
                                                       status: .playing))])
                #expect(players.players().map(\.processID) == [successor.processID])
                _ = two
            }
        }
    }

    @Test("a player that appears while open lists the names is listed once: neither lost nor announced twice")
    func appearsDuringOpen() async throws {
        try await PrivateSessionBus.withBus { bus in
            let connection = try await BusConnection.open(.address(bus.address))
            async let starting = FakePlayer.start(on: bus, name: "racing")
            let players = try await MPRISPlayers.open(on: connection, logger: RecordedLog().logger)
            let fake = try await starting
            let events = players.events()
            let listedAtOpen = players.players().map(\.name) == [fake.name]
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await players.run() }
                // Once it is listed, a change of it is announced: whatever came before is in.
                try await fake.setStatus("Paused", through: connection)
                let seen = try await collectEvents("the racing player paused", from: events) { $0.player?.status == .paused }
                #expect(seen.filter { if case .appeared = $0 { true } else { false } }.count == (listedAtOpen ? 0 : 1))
                #expect(!seen.contains(.vanished(name: fake.name)))
                #expect(players.players().map(\.name) == [fake.name])
                group.cancelAll()
            }
            await connection.close()
        }
    }

    @Test("when the bus goes away, or run() is cancelled, every player vanishes and every event stream ends")
    func ending() async throws {
        for cause in ["the bus going away", "cancellation"] {
            try await PrivateSessionBus.withBus { bus in
                let fake = try await FakePlayer.start(on: bus, name: "one")
                let connection = try await BusConnection.open(.address(bus.address))
                let players = try await MPRISPlayers.open(on: connection, logger: RecordedLog().logger)
                let events = players.events()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await players.run() }
                    if cause == "cancellation" { group.cancelAll() } else { await bus.stop() }
                    let seen = try await withTimeout("the events to end after \(cause)") {
                        var seen: [MediaPlayerEvent] = []
                        for await event in events { seen.append(event) }
                        return seen
                    }
                    #expect(seen == [.vanished(name: fake.name)], "after \(cause)")
                    try await group.waitForAll()
                }
                #expect(players.players().isEmpty)
                var late = players.events().makeAsyncIterator()
                #expect(await late.next() == nil)
                await connection.close()
            }
        }
    }

    @Test("broken players (no player interface, wrong types, no answer) are logged and left out; the others go on")
    func brokenPlayers() async throws {
        try await PrivateSessionBus.withBus { bus in
            let good = try await FakePlayer.start(on: bus, name: "good")
            let noInterface = try await FakePlayer.start(on: bus, name: "nointerface", fault: .noPlayerInterface)
            let wrongTypes = try await FakePlayer.start(on: bus, name: "wrongtypes", fault: .wrongTypes)
            let frozen = try await FakePlayer.start(on: bus, name: "frozen")
            frozen.freeze()
            let clock = ContinuousClock()
            let opened = clock.now
            try await withPlayers(on: bus, callTimeout: .seconds(1)) { players, client, log in
                // Open waited for the frozen one once, not once per player.
                #expect(clock.now - opened < .seconds(4))
                #expect(players.players().map(\.name) == [good.name])
                let lines = log.all
                for broken in [noInterface, wrongTypes, frozen] {
                    #expect(lines.contains { $0.contains(broken.name) }, "\(broken.name) is not in the log: \(lines)")
                }
                let events = players.events()
                try await good.setStatus("Paused", through: client)
                _ = try await firstEvent("good paused", in: events) { $0 == .changed(listed(good, .paused)) }

                // A player that stops answering once listed: a command times out, naming it.
                frozen.thaw()
                try await frozen.setStatus("Playing", through: client)
                _ = try await firstEvent("the thawed player to be read", in: events) { $0.name == frozen.name }
                frozen.freeze()
                let timedOut = await #expect(throws: MPRISCommandError.self) { try await players.pause(frozen.name) }
                #expect(timedOut == MPRISCommandError(player: frozen.name, command: .pause, reason: .timedOut(.seconds(1))))
                try await players.play(good.name)
                _ = try await firstEvent("good playing, past the frozen one", in: events) {
                    $0.name == good.name && $0.player?.status == .playing
                }
                frozen.thaw()
            }
        }
    }
}

/// `fake` as MPRISPlayers lists it, with `status`.
private func listed(_ fake: FakePlayer, _ status: PlaybackStatus) -> MediaPlayer {
    MediaPlayer(name: fake.name, processID: fake.processID, identity: "Fake Player", status: status)
}
