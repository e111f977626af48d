import PulseAudio
import RouteKit
import RouteKitTesting
import TestSupport
import Testing

/// The engine's own check for a default its connection missed (``MissedDefaultCheck``): on
/// pipewire-pulse, once clients stop coming and going, the default is read on a new connection,
/// and a difference heals the connection (one renewal) and the route. What must not happen is
/// checked over a window of three times the check's quiet period of 300 ms.
@Suite("AudioDeviceManager: a default missed while clients came and went")
struct MissedDefaultCheckTests {
    private typealias Scenario = HeadsetOverUSBScenario
    /// Three times the check's quiet period: long enough for a check that should not come.
    static let window = Duration.milliseconds(900)

    /// The scenario's three cards on a simulated server named as `serverName`.
    static func server(named serverName: String) throws -> SimulatedServer {
        let simulated = SimulatedServer(serverName: serverName)
        _ = try simulated.addCard(.laptopAnalog())
        _ = try simulated.addCard(.usbHeadset())
        _ = try simulated.addCard(.bluetoothHeadset())
        return simulated
    }

    @Test("on pipewire-pulse, a default changed unheard while a client came and went is read after it left; the route goes back")
    func missedWhileAClientCameAndWent() async throws {
        let simulated = try Self.server(named: "PulseAudio (on PipeWire 1.4.2)")
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        let headsetSink = try #require(try await simulated.serverInfo().defaultSinkName)
        let commandMark = simulated.receivedCommands.count
        let events = simulated.events()

        // A `pactl set-default-sink` whose change this connection never hears of.
        let pactl = simulated.connectClient(name: "pactl")
        try simulated.simulateMissedDefaultSink(Scenario.laptopSink)
        try simulated.disconnectClient(pactl.index)
        #expect(try await simulated.serverInfo().defaultSinkName == headsetSink, "missed")

        // Read on a new connection once the client left; renewed, the manager sees the speaker
        // as another client's choice and puts its preferred headset back.
        _ = try await firstEvent("the headset asked for again", in: events, timeout: .seconds(5)) { _ in
            simulated.receivedCommands.dropFirst(commandMark).contains(.setDefaultSink(headsetSink))
        }
        #expect(server.renewals == 1)
        #expect(try simulated.serverInfoAfresh().defaultSinkName == headsetSink)
        #expect(manager.selectedAudioDevice?.id == Scenario.headsetID)
        #expect(await log.failures.isEmpty)

        // The check's own client came and went: no other check follows it.
        let readings = simulated.newConnectionReadings
        #expect(readings >= 1)
        try await Task.sleep(for: Self.window)
        #expect(simulated.newConnectionReadings == readings, "a check started by the check's own client")
        await manager.stop()
    }

    @Test("on pipewire-pulse, clients that come and go while nothing was missed cost one reading and change nothing")
    func nothingMissed() async throws {
        let simulated = try Self.server(named: "PulseAudio (on PipeWire 1.4.2)")
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        let mark = await log.count
        let readingsAtStart = simulated.newConnectionReadings
        let events = simulated.events()
        // The reading's own client leaving ends the reading.
        try await simulated.clientBurst(5, thenReadingGoneIn: events)
        try await Task.sleep(for: Self.window)
        #expect(simulated.newConnectionReadings == readingsAtStart + 1, "five clients in a burst: one reading")
        #expect(server.renewals == 0)
        #expect(await log.count == mark, "no event")
        await manager.stop()
    }

    @Test("on pipewire-pulse, a default the connection missed just before start is read at start: the first route is the default in force")
    func missedBeforeStart() async throws {
        let simulated = try Self.server(named: "PulseAudio (on PipeWire 1.4.2)")
        defer { simulated.shutdown() }
        let usbSink = try #require(try await simulated.sinks().first { $0.name.hasPrefix("alsa_output.usb-") }).name
        try await simulated.setDefaultSink(Scenario.laptopSink)
        // WirePlumber restores the user's USB headset as the engine's connection is made.
        try simulated.simulateMissedDefaultSink(usbSink)
        #expect(try await simulated.serverInfo().defaultSinkName == Scenario.laptopSink, "missed")
        let server = RenewalCountingServer(simulated)
        let commandMark = simulated.receivedCommands.count
        // No preference: the manager keeps the server's choice, so its first route is the
        // default as it read it.
        let manager = AudioDeviceManager(server: server, preferences: [], logger: .forTests())
        let log = await EventLog.recording(manager)
        try await manager.start()
        let usb = try #require(await manager.audioDevices.first { $0.output?.deviceName == usbSink })
        #expect(try await log.waitForRoute(to: usb.id).reason == .started, "the first route, not a correction")
        #expect(manager.selectedAudioDevice?.id == usb.id)
        #expect(server.renewals == 1)
        #expect(simulated.newConnectionReadings == 1)
        #expect(!simulated.receivedCommands.dropFirst(commandMark).contains { if case .setDefaultSink = $0 { true } else { false } },
                "the default in force is kept, not set")
        // The start's reading came and went: no other check follows it.
        try await Task.sleep(for: Self.window)
        #expect(simulated.newConnectionReadings == 1, "a check started by the start's own reading")
        #expect(server.renewals == 1)
        #expect(await log.failures.isEmpty)
        await manager.stop()
    }

    @Test("on pipewire-pulse, a reading the server is slow to answer holds up no switch: a headset plugged meanwhile is routed at once")
    func slowReadingHoldsUpNothing() async throws {
        let simulated = try Self.server(named: "PulseAudio (on PipeWire 1.4.2)")
        defer { simulated.shutdown() }
        let server = RenewalCountingServer(simulated)
        let (manager, log) = try await Scenario.startedOnHeadset(server, logger: .forTests())
        var mark = await log.count
        try simulated.removeCard(named: Scenario.headsetCard)
        _ = try await log.waitForRoute(to: Scenario.speaker, after: mark)

        // A client comes and goes; the check's reading connects, then waits for its answer.
        simulated.holdNewConnectionReadings()
        let readings = simulated.newConnectionReadings
        let events = simulated.events()
        let pactl = simulated.connectClient(name: "pactl")
        try simulated.disconnectClient(pactl.index)
        _ = try await firstEvent("the reading's client connected", in: events, timeout: .seconds(5)) { event in
            guard case .subscription(let change) = event else { return false }
            return change.facility == .client && change.kind == .new && change.index != pactl.index
        }
        #expect(simulated.newConnectionReadings == readings + 1)

        // Routed while the reading still waits: well within the second a reading may take.
        mark = await log.count
        _ = try simulated.addCard(.bluetoothHeadset())
        _ = try await log.waitForRoute(to: Scenario.headsetID, after: mark, timeout: .milliseconds(500))
        simulated.releaseNewConnectionReadings()
        // The reading finds nothing missed: no renewal, nothing else.
        try await Task.sleep(for: Self.window)
        #expect(server.renewals == 0)
        #expect(simulated.newConnectionReadings == readings + 1)
        #expect(manager.selectedAudioDevice?.id == Scenario.headsetID)
        #expect(await log.failures.isEmpty)
        await manager.stop()
    }

    @Test("on PulseAudio, whose connections miss nothing, clients coming and going start no reading")
    func pulseAudioReadsNothing() async throws {
        let simulated = try Self.server(named: "pulseaudio")
        defer { simulated.shutdown() }
        let (manager, _) = try await Scenario.startedOnHeadset(simulated, logger: .forTests())
        let client = simulated.connectClient(name: "pactl")
        try simulated.disconnectClient(client.index)
        try await Task.sleep(for: Self.window)
        #expect(simulated.newConnectionReadings == 0)
        await manager.stop()
    }
}
