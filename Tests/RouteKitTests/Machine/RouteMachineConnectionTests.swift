import PulseAudio
@testable import RouteKit
import Testing

/// Losing the server and getting it back (defects 5, 10 and 15).
struct RouteMachineConnectionTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()

    @Test func losingTheConnectionIsAnnouncedAndDropsTheSwitchUnderWay() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        let plan = try #require(rig.start().plans.first)
        #expect(rig.machine.isConnected)

        let lost = rig.machine.connectionLost()
        #expect(lost == [.emit(.connectionChanged(isConnected: false))])
        #expect(!rig.machine.isConnected)
        #expect(!rig.machine.state.isConnected)
        #expect(rig.machine.pending == nil)
        #expect(rig.machine.deadline == nil)

        // Nothing is decided or reported while it is gone, not even a late confirmation.
        #expect(rig.confirm(plan).isEmpty)
        #expect(rig.handle(.setPreferred(.kind(.speakerphone))).isEmpty)
        #expect(rig.machine.connectionLost().isEmpty)
        #expect(rig.machine.route == nil)
    }

    @Test func theConnectionBackIsAnnouncedAndTheRouteDecidedAgain() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.start()
        _ = rig.machine.connectionLost()
        rig.advance(.seconds(2))

        // A restarted server: the default is the speaker again.
        let back = rig.machine.connectionRestored(devices: rig.devices, defaultSink: speaker.sinkName,
                                                  defaultSource: nil, now: rig.now)
        #expect(back.first == .emit(.connectionChanged(isConnected: true)))
        #expect(back.events.contains(.devicesChanged(rig.devices)))
        #expect(back.routedTo == [headset.id])
        #expect(rig.machine.isConnected)
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(nil, headset.id, .reconnected)])
    }

    @Test func aRestartedServerWithoutTheRoutesDeviceIsReportedAsReconnected() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == headset.id)
        let lost = rig.machine.connectionLost()
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

        _ = rig.machine.connectionLost()
        let back = rig.machine.connectionRestored(devices: rig.devices, defaultSink: speaker.sinkName, defaultSource: nil,
                                                  now: rig.now)
        #expect(!rig.machine.isYielding)
        #expect(back.routedTo == [headset.id])
    }
}
