import PulseAudio
@testable import RouteKit
import Testing

/// What a subscriber learns: the state first, then every change a UI shows (defect 15), and
/// application scope, where the defaults are never touched (Docs/Policy.md, "Scope").
struct RouteMachineStateTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let hdmi = MachineDevices.hdmi()

    @Test func theStateSaysWhereThingsStand() {
        let unplugged = MachineDevices.wiredHeadset(availability: .unavailable)
        var rig = MachineRig([speaker, headset, unplugged], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        #expect(!rig.machine.state.isConnected)
        #expect(rig.machine.state.route == nil)

        _ = rig.settle(rig.start())
        let state = rig.machine.state
        #expect(state.devices.map(\.id) == [speaker.id, headset.id])
        #expect(state.route?.id == headset.id)
        #expect(state.isConnected)
        #expect(!state.isCallAudioActive)
        #expect(state.preferences == PreferenceList([.kind(.bluetooth)]))
        #expect(state.selection == nil)
        #expect(!state.isYielding)
    }

    @Test func aStartWithNothingToRouteStillSaysTheServerIsFollowed() {
        var rig = MachineRig([], defaultSink: nil)
        #expect(!rig.machine.state.isConnected)
        let started = rig.start()
        #expect(started.events == [.connectionChanged(.ready)])
        #expect(rig.machine.state.isConnected)
        #expect(rig.machine.route == nil)
    }

    @Test func devicesChangedComesWithDeviceChangesNotWithAMovedDefault() {
        var rig = MachineRig([speaker, hdmi], defaultSink: speaker.sinkName)
        _ = rig.start()

        let plugged = rig.plug(headset)
        #expect(plugged.events.contains(.devicesChanged(rig.devices)))

        rig.advance(.seconds(1))
        let moved = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(moved.events.allSatisfy { if case .devicesChanged = $0 { false } else { true } })

        let unavailable = rig.change(rig.device(headset.id)!.altered { $0.availability = .unavailable })
        #expect(unavailable.events.contains(.devicesChanged(rig.devices.filter { $0.id != headset.id })))
    }

    @Test("a device whose details change (its name, its port) is announced; one only marked active is not")
    func devicesChangedComesWithChangedDetails() {
        var rig = MachineRig([speaker, hdmi], defaultSink: speaker.sinkName)
        _ = rig.start()
        let renamed = rig.change(rig.device(hdmi.id)!.altered { $0.description = "Living room TV" })
        #expect(renamed.events.contains(.devicesChanged(rig.devices)))
        let activeOnly = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(activeOnly.events.allSatisfy { if case .devicesChanged = $0 { false } else { true } })
    }

    @Test("what the machine keeps per device is only for the devices there: 500 plugs and unplugs leave nothing behind")
    func nothingKeptForDevicesThatWent() {
        var rig = MachineRig([speaker], defaultSink: speaker.sinkName, preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        for round in 0..<500 {
            let visitor = MachineDevices.bluetoothHeadset("00_00_00_00_\(round / 100)_\(round % 100)")
            _ = rig.settle(rig.plug(visitor))
            #expect(rig.machine.route?.id == visitor.id)
            _ = rig.settle(rig.unplug(visitor.id, defaultSink: speaker.sinkName))
        }
        #expect(rig.machine.route?.id == speaker.id)
        #expect(Set(rig.machine.arrivals.keys) == [speaker.id])
    }

    @Test func aMicrophoneThatComesToTheRoutesDeviceIsAnnounced() throws {
        let bare = MachineDevices.wiredHeadset(microphone: false)
        let withMicrophone = MachineDevices.wiredHeadset(microphone: true)
        var rig = MachineRig([speaker, bare], defaultSink: speaker.sinkName, defaultSource: nil,
                             preferences: PreferenceList([.kind(.wiredHeadset)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.input == nil)

        let changed = rig.change(withMicrophone)
        let plan = try #require(changed.plans.first)
        #expect(!plan.setsSink)
        #expect(plan.setsSource)
        #expect(changed.routeChanges.isEmpty)
        #expect(changed.events.contains(.inputChanged(route: try #require(rig.device(bare.id)))))
        #expect(rig.machine.route?.input?.deviceName == withMicrophone.input?.deviceName)
    }

    // MARK: Application scope

    func applicationRig(_ preferences: [AudioPreference]) -> MachineRig {
        var configuration = RouteMachine.Configuration()
        configuration.isSystemScope = false
        return MachineRig([speaker, headset, hdmi], defaultSink: speaker.sinkName,
                          preferences: PreferenceList(preferences), configuration: configuration)
    }

    @Test func applicationScopeRoutesStreamsAndNeverTheDefaults() throws {
        var rig = applicationRig([.kind(.bluetooth), .kind(.speakerphone)])
        let started = rig.start()
        let plan = try #require(started.plans.first)
        #expect(plan.device.id == headset.id)
        #expect(!plan.setsSink && !plan.setsSource)
        #expect(started.events == [.connectionChanged(.ready)])

        let applied = rig.machine.applicationRouteApplied(try #require(rig.device(headset.id)), now: rig.now)
        #expect(applied.routeChanges == [SeenRouteChange(nil, headset.id, .started)])
        #expect(applied.strayMoves.isEmpty)
        #expect(rig.machine.pending == nil)

        // Someone moves the system default: not the application's business.
        rig.advance(.seconds(1))
        let moved = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(moved.plans.isEmpty)
        #expect(moved.routeChanges.isEmpty)
        #expect(rig.machine.route?.id == headset.id)

        // The headset goes: its streams go to the next preference.
        let gone = rig.unplug(headset.id)
        #expect(gone.routedTo == [speaker.id])
        #expect(gone.plans.allSatisfy { !$0.setsSink && !$0.setsSource })
        let next = rig.machine.applicationRouteApplied(try #require(rig.device(speaker.id)), now: rig.now)
        #expect(next.routeChanges == [SeenRouteChange(headset.id, speaker.id, .deviceFailed)])
    }
}
