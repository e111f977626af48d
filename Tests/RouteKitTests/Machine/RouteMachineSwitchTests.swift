import PulseAudio
@testable import RouteKit
import Testing

/// A switch counts when the server confirms it; what a failed switch does to its device
/// (<doc:WhatWinsWhen>, "Failures"; defects 5 and 9).
struct RouteMachineSwitchTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let wired = MachineDevices.wiredHeadset()
    let hdmi = MachineDevices.hdmi()

    /// Started on the speaker with `preferences`, settled there.
    func onSpeaker(_ preferences: [AudioPreference], also devices: [AudioDevice] = []) -> MachineRig {
        MachineRig.settled(on: speaker, preferences, also: devices)
    }

    // MARK: Confirmation

    @Test func aSwitchIsReportedOnlyWhenTheServerReportsTheDefault() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth)]))
        let started = rig.start()

        // The route is asked for first (after saying the server is followed); nothing is
        // reported of it yet.
        let plan = try #require(started.plans.first)
        #expect(started.first == .emit(.connectionChanged(.ready)))
        #expect(started.dropFirst().first == .route(plan))
        #expect(plan.device.id == headset.id)
        #expect(plan.sink == headset.sinkName)
        #expect(plan.setsSink)
        #expect(!plan.setsSource)
        #expect(started.events == [.connectionChanged(.ready)])
        #expect(rig.machine.route == nil)
        #expect(rig.machine.pending?.device.id == headset.id)
        #expect(rig.machine.pending?.stage == .confirming(sink: headset.sinkName))

        // Other news meanwhile reports nothing about the route, and asks for nothing more.
        let meanwhile = rig.plug(hdmi)
        #expect(meanwhile.routeChanges.isEmpty)
        #expect(!meanwhile.switchesAnything)
        #expect(rig.machine.route == nil)
        #expect(rig.machine.pending?.device.id == headset.id)

        // The server reports the new default: now the route is reported, once.
        let confirmed = rig.confirm(plan)
        #expect(confirmed.routeChanges == [SeenRouteChange(nil, headset.id, .started)])
        #expect(confirmed.plans.isEmpty)
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.machine.pending == nil)
        #expect(rig.machine.isSettled)
    }

    @Test func aSwitchToADeviceThatGoesBeforeConfirmationFailsAndFallsThrough() throws {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)])
        let plugged = rig.plug(headset, wired)
        #expect(plugged.routedTo == [headset.id])

        let gone = rig.unplug(headset.id)
        #expect(gone.failedDevices == [headset.id])
        let failedAt = try #require(gone.firstIndex { if case .emit(.switchFailed) = $0 { true } else { false } })
        let routedAt = try #require(gone.firstIndex { if case .route = $0 { true } else { false } })
        #expect(failedAt < routedAt)
        #expect(gone.routedTo == [wired.id])
        #expect(rig.settle(gone).routeChanges == [SeenRouteChange(speaker.id, wired.id, .fellThrough)])

        // It went away: that is not a refusal, and it is tried again when it is back.
        let back = rig.plug(headset)
        #expect(back.routedTo == [headset.id])
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(wired.id, headset.id, .deviceAppeared)])
    }

    @Test func confirmationMovesStraysFromThePreviousDefaults() throws {
        let speaker = MachineDevices.speaker(microphone: true)
        var rig = MachineRig([speaker, wired], defaultSink: speaker.sinkName, defaultSource: speaker.input?.deviceName,
                             preferences: PreferenceList([.kind(.wiredHeadset)]))
        let started = rig.start()
        let plan = try #require(started.plans.first)
        #expect(plan.setsSink && plan.setsSource)
        #expect(plan.source == wired.input?.deviceName)
        #expect(started.strayMoves.isEmpty)

        let confirmed = rig.confirm(plan)
        #expect(confirmed.strayMoves == [.moveStrays(fromSinks: [speaker.sinkName], toSink: wired.sinkName,
                                                     fromSources: [speaker.input!.deviceName!], toSource: wired.input?.deviceName)])
        #expect(rig.machine.route?.id == wired.id)
    }

    // MARK: Refusals set a device aside

    @Test(arguments: [PulseError.Code.noSuchEntity, .invalidArgument, .accessDenied])
    func aRefusedDeviceIsSetAsideUntilItChanges(_ code: PulseError.Code) throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        let refused = rig.machine.switchFailed(headset.id, refusal(.defaultSink, code), now: rig.now)
        #expect(refused.failures.map(\.failure) == [refusal(.defaultSink, code)])
        #expect(refused.failedDevices == [headset.id])
        #expect(!refused.switchesAnything)  // the speaker is the default already
        #expect(refused.routeChanges == [SeenRouteChange(nil, speaker.id, .fellThrough)])
        #expect(rig.machine.pending == nil)

        // Later passes leave it aside.
        rig.advance(.seconds(5))
        #expect(!rig.plug(hdmi).routedTo.contains(headset.id))
        let elsewhere = rig.serverSetsDefaults(sink: hdmi.sinkName)
        #expect(elsewhere.routedTo == [speaker.id])
        _ = rig.settle(elsewhere)
        #expect(rig.machine.route?.id == speaker.id)

        // The device changes (its port became available): it is tried again.
        let changed = rig.change(rig.device(headset.id)!.altered { $0.availability = .available })
        #expect(changed.routedTo == [headset.id])
    }

    @Test func aRefusedDeviceIsTriedAgainWhenItReconnects() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        #expect(rig.unplug(headset.id).plans.isEmpty)
        let back = rig.plug(headset)
        #expect(back.routedTo == [headset.id])
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(speaker.id, headset.id, .deviceAppeared)])
    }

    @Test func aRefusedDeviceIsTriedAgainWhenTheApplicationAsks() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(), now: rig.now)
        #expect(rig.handle(.refresh).routedTo == [headset.id])
    }

    // MARK: What is not the device's fault (defect 5)

    static let notTheDevice: [SwitchFailure] = [
        SwitchFailure(step: .defaultSink, code: .connectionTerminated, message: "connection terminated"),
        SwitchFailure(step: .defaultSink, code: .timeout, message: "timeout"),
        SwitchFailure(step: .port, code: .badState, message: "bad state"),
        SwitchFailure(step: .defaultSink, code: .connectionRefused, message: "connection refused"),
        SwitchFailure(step: .profile, code: .protocolError, message: "protocol error"),
        .cancelled(.defaultSink),
        .cancelled(.profile),
    ]

    @Test("a cancellation is told by its kind, not by its words")
    func cancellationIsATypeNotAMessage() {
        #expect(!SwitchFailure.cancelled(.defaultSink).isAboutTheDevice)
        // A refusal whose words happen to start so is still the device's.
        #expect(SwitchFailure(step: .profile, message: "cancelled by the driver").isAboutTheDevice)
    }

    @Test(arguments: notTheDevice)
    func connectionLossTimeoutsAndCancellationNeverSetADeviceAside(_ failure: SwitchFailure) {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        var after = rig.machine.switchFailed(headset.id, failure, now: rig.now)
        #expect(rig.machine.refused[headset.id] == nil)
        #expect(!after.routedTo.contains(speaker.id))
        #expect(after.routeChanges.isEmpty)

        // The next pass (here: a device appears) goes for the headset again, if it was not
        // asked for at once.
        after += rig.plug(hdmi)
        #expect(after.routedTo.contains(headset.id))
        #expect(rig.machine.pending?.device.id == headset.id)
    }

    @Test func failuresAreForgottenWhenTheConnectionIsBack() {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        _ = rig.start()
        _ = rig.machine.switchFailed(headset.id, refusal(.defaultSink, .noSuchEntity), now: rig.now)
        rig.advance(.seconds(1))
        // The server restarts: the same hardware compares equal to the refused device.
        _ = rig.loseConnection()
        let back = rig.machine.connectionRestored(devices: rig.devices, defaultSink: speaker.sinkName, defaultSource: nil,
                                                  now: rig.now)
        #expect(back.routedTo == [headset.id])
        #expect(rig.settle(back).routeChanges == [SeenRouteChange(nil, headset.id, .reconnected)])
    }

    // MARK: Unconfirmed switches (defect 9)

    @Test("application scope: a switch's recheck, which only system scope acts on, is no reason to wake")
    func applicationScopeRecheckWakesNothing() {
        var configuration = RouteMachine.Configuration()
        configuration.isSystemScope = false
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]), configuration: configuration)
        let started = rig.start()
        #expect(started.routedTo == [headset.id])
        rig.advance(rig.machine.configuration.confirmationRecheck)
        #expect(!rig.machine.isConfirmationOverdue(now: rig.now), "no reading of the defaults in application scope")
        _ = rig.machine.deadlinePassed(now: rig.now)
        // The engine's loop waits until the machine's deadline: one already past, which
        // nothing clears, would run it without pause until the switch's own deadline.
        if let deadline = rig.machine.deadline {
            #expect(deadline > rig.now, "the machine's deadline is \(rig.now - deadline) past")
        }
    }

    @Test func aSwitchNotConfirmedInTimeIsRetriedToTheOverrideLimitThenNotUntilTheDeviceChanges() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        let started = rig.start()
        #expect(started.routedTo == [headset.id])
        // First the recheck (the engine reads the defaults on a renewed connection), then,
        // once it is done, the deadline.
        #expect(rig.machine.deadline == rig.epoch + rig.machine.configuration.confirmationRecheck)
        #expect(!rig.machine.isConfirmationOverdue(now: rig.now))
        rig.advance(rig.machine.configuration.confirmationRecheck)
        #expect(rig.machine.isConfirmationOverdue(now: rig.now))
        #expect(rig.machine.deadlinePassed(now: rig.now).isEmpty, "a recheck judges nothing")
        _ = rig.machine.confirmationRechecked()
        #expect(!rig.machine.isConfirmationOverdue(now: rig.now))
        #expect(rig.machine.deadline == rig.epoch + rig.machine.configuration.confirmationTimeout)

        rig.advance(.seconds(1) - rig.machine.configuration.confirmationRecheck)
        #expect(rig.machine.deadlinePassed(now: rig.now).isEmpty)
        #expect(rig.machine.pending?.device.id == headset.id)

        // The speaker, there all along, stays the default: counted as an override and taken
        // back (the same switch again, never a bounce to the speaker) until the limit.
        let limit = rig.machine.configuration.overrideLimit
        for miss in 1..<limit {
            let retried = rig.passDeadline()
            #expect(retried.failures.map(\.device) == [headset.id])
            #expect(retried.routedTo == [headset.id], "miss \(miss) is taken back")
            #expect(retried.routeChanges.isEmpty)
            #expect(!rig.machine.isYielding, "miss \(miss) of \(limit) never yields")
        }

        let late = rig.passDeadline()
        let failure = try #require(late.failures.first)
        #expect(failure.device == headset.id)
        #expect(failure.failure.step == .verification)
        #expect(late.routeChanges == [SeenRouteChange(nil, speaker.id, .fellThrough)])
        #expect(late.strayMoves.isEmpty)
        #expect(late.events.contains(.yielded(to: rig.device(speaker.id), overrides: limit)))
        #expect(rig.machine.pending == nil)
        #expect(rig.machine.deadline == nil)

        // Later passes do not try it again: audio does not bounce on a slow server.
        rig.advance(.seconds(1))
        var later = rig.plug(hdmi)
        let elsewhere = rig.serverSetsDefaults(sink: hdmi.sinkName)
        later += elsewhere
        later += rig.settle(elsewhere)
        later += rig.unplug(hdmi.id)
        #expect(!later.routedTo.contains(headset.id))
        #expect(rig.machine.route?.id == speaker.id)

        // It changes: it is tried again.
        let changed = rig.change(rig.device(headset.id)!.altered { $0.availability = .available })
        #expect(changed.routedTo == [headset.id])
    }

    @Test func aConfirmationThatComesAfterTheDeadlineIsNotUndone() throws {
        var rig = MachineRig([speaker, headset], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        let plan = try #require(rig.start().plans.first)
        rig.machine.record(.defaultSink(plan.sink))  // the executor asked for it
        for _ in 1...rig.machine.configuration.overrideLimit { _ = rig.passDeadline() }
        #expect(rig.machine.route?.id == speaker.id)

        // The slow server does it after all: the preferred device is the default now. Moving
        // audio back to the speaker would be the bounce that defect 9 describes.
        rig.advance(.milliseconds(500))
        let confirmed = rig.confirm(plan)
        #expect(!confirmed.routedTo.contains(speaker.id))
        #expect(confirmed.events.allSatisfy { if case .yielded = $0 { false } else { true } })
        #expect(rig.machine.route?.id == headset.id)
        #expect(rig.machine.ledger.ownsDefaultSink)
    }

    @Test func aProfileThatBringsNoSinkInTimeFailsAndFallsThrough() throws {
        let asleep = MachineDevices.bluetoothHeadset().altered {
            $0.output?.deviceName = nil
            $0.requiredProfile = "a2dp-sink"
        }
        var rig = MachineRig([speaker, asleep, hdmi], defaultSink: hdmi.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))
        let started = rig.start()
        #expect(started.profileSelections.map(\.profile) == ["a2dp-sink"])
        #expect(started.plans.isEmpty)
        #expect(rig.machine.deadline == rig.epoch + rig.machine.configuration.profileTimeout)

        let late = rig.passDeadline()
        #expect(late.failures.map(\.failure.step) == [.profile])
        #expect(late.routedTo == [speaker.id])
        #expect(rig.settle(late).routeChanges == [SeenRouteChange(nil, speaker.id, .fellThrough)])
    }

    @Test func aDeviceRefusedAsItWentIsTriedAgainWhenItComesBack() {
        var rig = onSpeaker([.kind(.bluetooth), .kind(.speakerphone)])
        let plugged = rig.plug(headset)
        #expect(plugged.routedTo == [headset.id])
        // The headset went between the event and the request: the server refuses it.
        _ = rig.machine.switchFailed(headset.id, refusal(.defaultSink, .noSuchEntity), now: rig.now)
        _ = rig.unplug(headset.id)
        // The same headset, the same value, back again (a reconnect storm's last plug).
        let back = rig.plug(headset)
        #expect(back.routedTo == [headset.id], "a device that came back is not the one that failed")
    }

    @Test func strayMovesLookOnTheRecentRoutesToo() {
        // Switches in quick succession (speaker, then the wired headset, then the Bluetooth
        // one): a stream the server moved late may still sit on a route before the last.
        var rig = onSpeaker([.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)])
        _ = rig.settle(rig.plug(wired))
        #expect(rig.machine.route?.id == wired.id)
        let toHeadset = rig.settle(rig.plug(headset))
        #expect(rig.machine.route?.id == headset.id)
        let fromSinks = toHeadset.strayMoves.compactMap { action -> [String]? in
            if case .moveStrays(let sinks, _, _, _) = action { sinks } else { nil }
        }.flatMap { $0 }
        #expect(fromSinks.first == wired.sinkName, "the last route first: \(fromSinks)")
        #expect(fromSinks.contains(speaker.sinkName), "and the one before: \(fromSinks)")
        #expect(!fromSinks.contains(headset.sinkName))
    }
}
