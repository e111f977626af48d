import PulseAudio
@testable import RouteKit
import Testing

/// What the machine names as the fallback to take the moment the route's sink is removed
/// (``RouteMachine/standingFallback(now:)``): only what its own decision would then take, and
/// only when that can be said ahead.
struct RouteMachineStandingFallbackTests {
    let speaker = MachineDevices.speaker()
    let wired = MachineDevices.wiredHeadset()
    let hdmi = MachineDevices.hdmi()
    let preferences = PreferenceList([.kind(.wiredHeadset), .kind(.bluetooth), .kind(.speakerphone)])

    /// Settled on `route` among `devices`, with the preferences above.
    func settled(_ devices: [AudioDevice], on route: AudioDevice,
                 configuration: RouteMachine.Configuration = .init()) -> MachineRig {
        var rig = MachineRig(devices, defaultSink: speaker.sinkName, preferences: preferences, configuration: configuration)
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == route.id)
        return rig
    }

    @Test func theNextPreferredDeviceOnAnotherSink() throws {
        let rig = settled([speaker, wired, hdmi], on: wired)
        let order = try #require(rig.machine.standingFallback(now: rig.now))
        #expect(order.routeSink == wired.sinkName)
        #expect(order.target.id == speaker.id, "the speaker, not the HDMI output the preferences never name")
        #expect(order.targetSink == speaker.sinkName)
    }

    @Test func aBluetoothSinkWithoutACardHasOne() throws {
        let sink = MachineDevices.bluetoothSink()
        let rig = settled([speaker, sink], on: sink)
        #expect(try #require(rig.machine.standingFallback(now: rig.now)).target.id == speaker.id)
    }

    @Test("none for a headset with a call profile: its sink also goes when its card only changes profile")
    func noneForAHeadsetWithACallProfile() {
        let headset = MachineDevices.bluetoothHeadset()
        let rig = settled([speaker, headset], on: headset)
        #expect(rig.machine.standingFallback(now: rig.now) == nil)
    }

    @Test("none while a switch is under way, during call audio, or in application scope")
    func noneWhenNotSettled() {
        var pending = MachineRig([speaker, wired], defaultSink: speaker.sinkName, preferences: preferences)
        _ = pending.start()
        #expect(pending.machine.pending != nil)
        #expect(pending.machine.standingFallback(now: pending.now) == nil)

        var call = settled([speaker, wired], on: wired)
        _ = call.settle(call.handle(.callAudio(true)))
        #expect(call.machine.standingFallback(now: call.now) == nil)
        _ = call.settle(call.handle(.callAudio(false)))
        #expect(call.machine.standingFallback(now: call.now)?.target.id == speaker.id, "armed again once the call ends")

        var application = RouteMachine.Configuration()
        application.isSystemScope = false
        var scoped = MachineRig([speaker, wired], defaultSink: speaker.sinkName, preferences: preferences, configuration: application)
        _ = scoped.settle(scoped.start())
        #expect(scoped.machine.standingFallback(now: scoped.now) == nil)
    }

    @Test("none when the fallback needs a profile first, and none with nothing to fall back to")
    func noneWhenTheFallbackIsNotReady() {
        let off = MachineDevices.bluetoothHeadset(callProfile: false).altered { $0.requiredProfile = "a2dp-sink" }
        let needsProfile = settled([wired, off], on: wired)
        #expect(needsProfile.machine.standingFallback(now: needsProfile.now) == nil)

        let alone = settled([wired], on: wired)
        #expect(alone.machine.standingFallback(now: alone.now) == nil)
    }
}
