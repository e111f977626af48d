import PulseAudio
@testable import RouteKit
import Testing

/// ACB's two slots, the preference list, and the order in which devices are tried
/// (<doc:WhatWinsWhen>, "The order").
struct RouteMachinePreferenceTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let hdmi = MachineDevices.hdmi()

    // MARK: ACB's slots (defect 2)

    @Test func fallbackThenPreferredKeepsBoth() {
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: hdmi.sinkName)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.setFallback(.kind(.speakerphone))))
        let actions = rig.handle(.setPreferred(.kind(.bluetooth)))

        #expect(rig.machine.preferences == PreferenceList(preferred: .kind(.bluetooth), fallback: .kind(.speakerphone)))
        #expect(rig.machine.preferences.ordered == [.kind(.bluetooth), .kind(.speakerphone)])
        #expect(actions.routedTo == [headset.id])
        _ = rig.settle(actions)
        #expect(rig.machine.route?.id == headset.id)

        // The headset goes and the server falls back to HDMI: the fallback slot still applies.
        let gone = rig.unplug(headset.id, defaultSink: hdmi.sinkName)
        #expect(gone.routedTo == [speaker.id])
        #expect(rig.settle(gone).routeChanges == [SeenRouteChange(headset.id, speaker.id, .deviceFailed)])
    }

    @Test func preferredThenFallbackKeepsBoth() {
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: hdmi.sinkName)
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.setPreferred(.kind(.bluetooth))))
        _ = rig.settle(rig.handle(.setFallback(.kind(.speakerphone))))

        #expect(rig.machine.preferences == PreferenceList(preferred: .kind(.bluetooth), fallback: .kind(.speakerphone)))
        #expect(rig.machine.route?.id == headset.id)
        let gone = rig.unplug(headset.id, defaultSink: hdmi.sinkName)
        #expect(gone.routedTo == [speaker.id])
    }

    @Test func clearingOneSlotKeepsTheOther() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList(preferred: .kind(.bluetooth), fallback: .kind(.speakerphone)))
        _ = rig.settle(rig.start())
        let actions = rig.handle(.setPreferred(nil))
        #expect(rig.machine.preferences == PreferenceList(fallback: .kind(.speakerphone)))
        #expect(actions.routedTo == [speaker.id])
    }

    @Test func setPreferencesReplacesTheWholeList() {
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: hdmi.sinkName,
                             preferences: PreferenceList(preferred: .kind(.earpiece), fallback: .kind(.speakerphone)))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == speaker.id)

        let actions = rig.handle(.setPreferences(PreferenceList([.kind(.wiredHeadset), .kind(.earpiece)])))
        #expect(rig.machine.preferences == PreferenceList(preferred: .kind(.wiredHeadset), others: [.kind(.earpiece)]))
        #expect(rig.machine.preferences.fallback == nil)
        #expect(!actions.switchesAnything)

        // Nothing in the new list is present, and the old fallback is gone: a default someone
        // else chooses now stands.
        rig.advance(.seconds(1))
        let elsewhere = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(elsewhere.plans.isEmpty)
        #expect(elsewhere.routeChanges == [SeenRouteChange(speaker.id, hdmi.id, .changedElsewhere)])
    }

    // MARK: Keeping what already satisfies the preference (defect 3)

    @Test func aDefaultThatSatisfiesTheKindIsKeptAtStart() {
        let builtIn = MachineDevices.speaker("pci")
        let other = MachineDevices.speaker("usb-speaker")  // announced later: the newer one
        var rig = MachineRig([builtIn, other], defaultSink: builtIn.sinkName,
                             preferences: PreferenceList([.kind(.speakerphone)]))
        let actions = rig.start()

        #expect(!actions.switchesAnything)
        #expect(actions.routeChanges == [SeenRouteChange(nil, builtIn.id, .started)])
        #expect(rig.machine.route?.id == builtIn.id)
        #expect(rig.machine.pending == nil)
    }

    @Test func aNewDeviceOfTheWinningKindTakesOver() {
        let builtIn = MachineDevices.speaker("pci")
        let other = MachineDevices.speaker("usb-speaker")
        let conference = MachineDevices.speaker("usb-conference")
        var rig = MachineRig([builtIn, other], defaultSink: builtIn.sinkName,
                             preferences: PreferenceList([.kind(.speakerphone)]))
        _ = rig.start()

        let plugged = rig.plug(conference)
        #expect(plugged.routedTo == [conference.id])
        #expect(rig.settle(plugged).routeChanges == [SeenRouteChange(builtIn.id, conference.id, .deviceAppeared)])
        #expect(rig.machine.route?.id == conference.id)
    }

    // MARK: The order among devices of one kind

    @Test func theNewestOfAKindWins() {
        let older = MachineDevices.bluetoothHeadset("00_00_00_00_00_01")
        let newer = MachineDevices.bluetoothHeadset("00_00_00_00_00_02")
        let newest = MachineDevices.bluetoothHeadset("00_00_00_00_00_03")
        var rig = MachineRig([speaker, older, newer], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        let started = rig.start()
        #expect(started.routedTo == [newer.id])
        _ = rig.settle(started)

        let plugged = rig.plug(newest)
        #expect(plugged.routedTo == [newest.id])
        _ = rig.settle(plugged)

        // The newest goes: the newest of those left takes over.
        let gone = rig.unplug(newest.id)
        #expect(gone.routedTo == [newer.id])
        #expect(rig.settle(gone).routeChanges == [SeenRouteChange(newest.id, newer.id, .deviceFailed)])
    }

    @Test func availableBeatsUnknownAvailabilityEvenWhenOlder() {
        let known = MachineDevices.wiredHeadset("usb-a", availability: .available)
        let unsure = MachineDevices.wiredHeadset("usb-b", availability: .unknown)
        var rig = MachineRig([speaker, known, unsure], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.wiredHeadset)]))
        #expect(rig.start().routedTo == [known.id])
    }

    @Test func unavailableAndOutputlessDevicesAreNeverTried() {
        let unplugged = MachineDevices.wiredHeadset(availability: .unavailable)
        let microphone = MachineDevices.microphoneOnly()
        var rig = MachineRig([speaker, unplugged, microphone, hdmi], defaultSink: hdmi.sinkName,
                             preferences: PreferenceList([.device(microphone.id), .kind(.wiredHeadset), .device(unplugged.id),
                                                          .kind(.speakerphone)]))
        let started = rig.start()
        #expect(started.routedTo == [speaker.id])
        _ = rig.settle(started)
        #expect(!rig.machine.state.devices.contains { $0.id == unplugged.id })

        // The jack is plugged: now it is tried, as a device that appeared.
        let plugged = rig.change(unplugged.altered { $0.availability = .available })
        #expect(plugged.routedTo == [unplugged.id])
        #expect(rig.settle(plugged).routeChanges == [SeenRouteChange(speaker.id, unplugged.id, .deviceAppeared)])
    }

    @Test func hdmiAndVirtualSinksAreUsedOnlyWhenNamed() {
        let null = MachineDevices.virtualSink()
        var rig = MachineRig([speaker, hdmi, null], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.external), .kind(.virtual)]))
        let started = rig.start()
        #expect(!started.switchesAnything)
        #expect(rig.machine.route?.id == speaker.id)

        let named = rig.handle(.setPreferences(PreferenceList([.device(hdmi.id), .kind(.speakerphone)])))
        #expect(named.routedTo == [hdmi.id])
        _ = rig.settle(named)

        let virtual = rig.handle(.setPreferences(PreferenceList([.device(null.id)])))
        #expect(virtual.routedTo == [null.id])
        #expect(rig.settle(virtual).routeChanges == [SeenRouteChange(hdmi.id, null.id, .preferencesChanged)])
    }

    @Test func theIssuesDaemonPrefersBluetoothThenTheEarpiece() {
        // `routectl daemon --prefer bluetooth --prefer earpiece`, on a phone.
        let earpiece = MachineDevices.earpiece()
        var rig = MachineRig([speaker, earpiece, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList(preferred: .kind(.bluetooth), fallback: .kind(.earpiece)))
        let started = rig.start()
        #expect(started.routedTo == [headset.id])
        _ = rig.settle(started)

        let gone = rig.unplug(headset.id)  // the server falls back to the speaker
        #expect(gone.routedTo == [earpiece.id])
        #expect(rig.settle(gone).routeChanges == [SeenRouteChange(headset.id, earpiece.id, .deviceFailed)])
    }

    // MARK: The manual selection

    @Test func theSelectionWinsIsStickyAndIsDroppedWhenItsDeviceGoes() {
        let newerHeadset = MachineDevices.bluetoothHeadset("00_00_00_00_00_09")
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        #expect(rig.machine.route?.id == headset.id)

        let selected = rig.handle(.select(hdmi.id))
        #expect(selected.routedTo == [hdmi.id])
        #expect(rig.settle(selected).routeChanges == [SeenRouteChange(headset.id, hdmi.id, .selectionChanged)])
        #expect(rig.machine.selection == hdmi.id)

        // A newer device of the preferred kind does not take over from the selection.
        let plugged = rig.plug(newerHeadset)
        #expect(!plugged.switchesAnything)
        #expect(rig.machine.route?.id == hdmi.id)
        #expect(rig.machine.selection == hdmi.id)

        // The selected device goes: the selection is dropped and the preferences apply.
        let gone = rig.unplug(hdmi.id, defaultSink: speaker.sinkName)
        #expect(rig.machine.selection == nil)
        #expect(gone.routedTo == [newerHeadset.id])
        #expect(rig.settle(gone).routeChanges == [SeenRouteChange(hdmi.id, newerHeadset.id, .deviceFailed)])

        // It comes back: the selection stays dropped.
        let back = rig.plug(hdmi)
        #expect(!back.switchesAnything)
        #expect(rig.machine.selection == nil)
        #expect(rig.machine.route?.id == newerHeadset.id)
    }

    @Test func theSelectionIsDroppedWhenItsDeviceBecomesUnavailable() {
        let wired = MachineDevices.wiredHeadset()
        var rig = MachineRig([speaker, wired, hdmi], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.speakerphone)]))
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.select(wired.id)))
        #expect(rig.machine.route?.id == wired.id)

        let unplugged = rig.change(wired.altered { $0.availability = .unavailable })
        #expect(rig.machine.selection == nil)
        #expect(unplugged.routedTo == [speaker.id])
        #expect(rig.settle(unplugged).routeChanges == [SeenRouteChange(wired.id, speaker.id, .deviceFailed)])

        _ = rig.change(wired)
        #expect(rig.machine.selection == nil)
        #expect(rig.machine.route?.id == speaker.id)
    }

    @Test func clearingTheSelectionGoesBackToThePreferences() {
        var rig = MachineRig([speaker, headset, hdmi], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        _ = rig.settle(rig.start())
        _ = rig.settle(rig.handle(.select(hdmi.id)))

        let cleared = rig.handle(.select(nil))
        #expect(rig.machine.selection == nil)
        #expect(cleared.routedTo == [headset.id])
        #expect(rig.settle(cleared).routeChanges == [SeenRouteChange(hdmi.id, headset.id, .selectionChanged)])
        #expect(rig.machine.state.selection == nil)
    }
}
