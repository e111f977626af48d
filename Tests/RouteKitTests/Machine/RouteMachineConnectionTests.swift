import PulseAudio
@testable import RouteKit
import Testing

/// Losing the server and getting it back (defects 5, 10 and 15), told in the client's own
/// words (`ConnectionState`): each state a UI would show is an event, and the state says it too.
struct RouteMachineConnectionTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()

    @Test func losingTheConnectionIsAnnouncedAndDropsTheSwitchUnderWay() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        let plan = try #require(rig.start().plans.first)
        #expect(rig.machine.isConnected)

        let lost = rig.loseConnection()
        let reconnecting = ConnectionState.reconnecting(attempt: 1, lastError: MachineRig.lostServer)
        #expect(lost == [.emit(.connectionChanged(reconnecting))])
        #expect(!rig.machine.isConnected)
        #expect(rig.machine.state.connection == reconnecting)
        #expect(!rig.machine.state.isConnected, "the shorthand follows the connection")
        #expect(rig.machine.pending == nil)
        #expect(rig.machine.deadline == nil)

        // Nothing is decided or reported while it is gone, not even a late confirmation.
        #expect(rig.confirm(plan).isEmpty)
        #expect(rig.handle(.setPreferred(.kind(.speakerphone))).isEmpty)
        #expect(rig.loseConnection().isEmpty, "the same state again is no change")
        #expect(rig.machine.route == nil)
    }

    @Test func eachAttemptIsToldThenReadyReappliesTheRoute() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.state.connection == .ready)
        #expect(rig.machine.route?.id == headset.id)

        let first = rig.loseConnection()
        #expect(first.events == [.connectionChanged(.reconnecting(attempt: 1, lastError: MachineRig.lostServer)),
                                 .routeChanged(from: rig.device(headset.id), to: nil, reason: .disconnected)])
        rig.advance(.milliseconds(50))
        // The first attempt finds no server: attempt 2, with the refusal as its reason. The
        // route was reported gone once; it is not reported again.
        let second = rig.loseConnection(attempt: 2, MachineRig.refused)
        let refusedAgain = ConnectionState.reconnecting(attempt: 2, lastError: MachineRig.refused)
        #expect(second == [.emit(.connectionChanged(refusedAgain))])
        #expect(rig.machine.state.connection == refusedAgain)
        #expect(rig.machine.state.route == nil)
        // A bare ready is not enough: the machine is ready once it has what the server shows.
        #expect(rig.machine.connectionChanged(to: .ready).isEmpty)
        #expect(rig.machine.state.connection == refusedAgain)

        // A restarted server: the default is the speaker again; the preference is re-applied.
        rig.advance(.milliseconds(100))
        let restarted = rig.devices.map { device in device.altered { $0.isActive = device.id == speaker.id } }
        let back = rig.machine.connectionRestored(devices: restarted, defaultSink: speaker.sinkName,
                                                  defaultSource: nil, now: rig.now)
        #expect(back.first == .emit(.connectionChanged(.ready)))
        #expect(back.events.contains(.devicesChanged(restarted)))
        #expect(back.routedTo == [headset.id])
        #expect(rig.machine.state.connection == .ready)
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(nil, headset.id, .reconnected)])
        #expect(rig.machine.state.route?.id == headset.id)
    }

    @Test func aClientThatGivesUpIsReportedFailed() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())

        // A client that does not reconnect (ReconnectPolicy.never) goes from ready to failed.
        let failed = rig.machine.connectionChanged(to: .failed(MachineRig.lostServer))
        #expect(failed.events == [.connectionChanged(.failed(MachineRig.lostServer)),
                                  .routeChanged(from: rig.device(headset.id), to: nil, reason: .disconnected)])
        #expect(rig.machine.state.connection == .failed(MachineRig.lostServer))
        #expect(rig.handle(.refresh).isEmpty, "nothing is routed while failed")

        // One that gives up after trying: failed follows the attempts, the route told gone once.
        var trying = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                                preferences: PreferenceList([.kind(.bluetooth)]))
        _ = trying.settle(trying.start())
        _ = trying.loseConnection()
        let gaveUp = trying.machine.connectionChanged(to: .failed(MachineRig.refused))
        #expect(gaveUp == [.emit(.connectionChanged(.failed(MachineRig.refused)))])
    }

    @Test func theManagersOwnLifecycleIsToldInTheSameWords() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        #expect(rig.machine.state.connection == .idle, "before the first run")
        #expect(rig.machine.connecting() == [.emit(.connectionChanged(.connecting))])
        #expect(rig.machine.state.connection == .connecting)
        #expect(rig.machine.route == nil)

        // The start could not read the server: failed, with the server's reason.
        let unreachable = PulseError(.connectionRefused, operation: "connect to the server")
        #expect(rig.machine.startFailed(unreachable) == [.emit(.connectionChanged(.failed(unreachable)))])
        // A cancelled start is as if there had been none.
        _ = rig.machine.connecting()
        #expect(rig.machine.startFailed(nil) == [.emit(.connectionChanged(.idle))])

        _ = rig.machine.connecting()
        let started = rig.start()
        #expect(started.events == [.connectionChanged(.ready)])
        _ = rig.settle(started)

        let stopped = rig.machine.stopped(restoredRoute: rig.device(speaker.id))
        #expect(stopped.events == [.routeChanged(from: rig.device(headset.id), to: rig.device(speaker.id), reason: .stopped),
                                   .connectionChanged(.shutDown)])
        #expect(rig.machine.state.connection == .shutDown)
        #expect(!rig.machine.state.isConnected)

        // Started again: connecting, then ready.
        #expect(rig.machine.connecting() == [.emit(.connectionChanged(.connecting))])
        #expect(rig.start().events.first == .connectionChanged(.ready))
    }

    @Test func aClientShutDownUnderTheManagerIsToldOnce() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        let shut = rig.machine.connectionChanged(to: .shutDown)
        #expect(shut.events.first == .connectionChanged(.shutDown))
        #expect(shut.routeChanges == [SeenRouteChange(headset.id, nil, .disconnected)])
        // The run then ends: stop() says nothing more of the connection.
        #expect(rig.machine.stopped(restoredRoute: nil).events.isEmpty)
    }

    @Test func aRestartedServerWithoutTheRoutesDeviceIsReportedAsReconnected() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == headset.id)
        let lost = rig.loseConnection()
        // While disconnected the route is nowhere the machine can name.
        #expect(lost.routeChanges == [SeenRouteChange(headset.id, nil, .disconnected)])
        #expect(rig.machine.route == nil)

        let newServer = [rig.device(speaker.id)!.altered { $0.isActive = true }]
        let back = rig.machine.connectionRestored(devices: newServer, defaultSink: speaker.sinkName, defaultSource: nil,
                                                  now: rig.now)
        #expect(back.plans.isEmpty)
        #expect(back.routeChanges == [SeenRouteChange(nil, speaker.id, .reconnected)])
    }

    @Test func reconnectingEndsYielding() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        for _ in 0..<rig.machine.configuration.overrideLimit {
            rig.advance(.seconds(1))
            _ = rig.settle(rig.serverSetsDefaults(sink: speaker.sinkName))
        }
        #expect(rig.machine.isYielding)

        _ = rig.loseConnection()
        let back = rig.machine.connectionRestored(devices: rig.devices, defaultSink: speaker.sinkName, defaultSource: nil,
                                                  now: rig.now)
        #expect(!rig.machine.isYielding)
        #expect(back.routedTo == [headset.id])
    }
}
