import PropertyBased
@testable import RouteKit
import Testing

/// Properties of the route machine over random runs: plugs, unplugs, the server confirming or
/// refusing a switch or the microphone's mute, someone else's defaults, commands, connection
/// losses and the passing of time, in both scopes, with and without a hold-off for new devices.
@Suite("Route machine: properties over random runs")
struct RouteMachineProperties {
    /// What happens next, as a step of a generated run.
    enum Step: Int, CaseIterable {
        case wait100ms, wait600ms, wait3s, plugHeadset, unplugHeadset, plugEarpiece, unplugEarpiece
        case serverDoesWhatWasAsked, someoneElsePicksSpeaker, preferBluetooth, preferEarpiece
        case callAudioOn, callAudioOff, speakerOn, loseConnection, restoreConnection
        case serverRefusesWhatWasAsked, muteMicrophone, unmuteMicrophone, serverRefusesMute
        case preferBluetoothThenEarpiece
    }

    /// The engine's loop waits until the machine's deadline, and after each turn it has told the
    /// machine the time (``RouteMachine/deadlinePassed(now:)``). A deadline still in the past
    /// after that is one nothing will clear: the loop would wake for it without pause (found
    /// twice on 30 November: the missed-default check while disconnected, a recheck in
    /// application scope). (30 000 runs, tried once, found nothing more; each deadline kind was
    /// met: a switch's, a refused mute's retry, a hold-off's end.)
    @Test("after each turn the machine's deadline is in the future, or there is none")
    func noPastDeadline() async {
        let steps = Gen.int(in: 0...(Step.allCases.count - 1)).array(of: 1...40)
        await propertyCheck(count: 1000, input: steps, Gen.bool, Gen.bool) { codes, isSystemScope, holdsOff in
            var run = Run(isSystemScope: isSystemScope, holdOff: holdsOff ? .seconds(2) : .zero)
            for code in codes {
                run.take(Step(rawValue: code) ?? .wait100ms)
                if let past = run.deadlineInThePast() {
                    Issue.record("after steps \(codes.compactMap(Step.init)) (system scope: \(isSystemScope), hold-off: \(holdsOff)) the deadline is \(past) past")
                    return
                }
            }
        }
    }

    /// Yielding is following someone else's default: a turn that announces it yields asks for no
    /// switch, and leaves the machine yielding (found on 30 November: the switch that met the
    /// override limit at its deadline fell through to the next device of the list while the
    /// machine announced it yielded). Runs as above, with more time passing.
    @Test("a turn that yields asks for no switch and leaves the machine yielding")
    func yieldingSwitchesNothing() async {
        // A yield takes three switches missed at their deadlines within the override window:
        // codes past the steps are three seconds passing, a quarter of all steps.
        let steps = Gen.int(in: 0...(Step.allCases.count * 4 / 3)).array(of: 1...24)
        await propertyCheck(count: 2000, input: steps, Gen.bool) { codes, isSystemScope in
            var run = Run(isSystemScope: isSystemScope, holdOff: .zero)
            for code in codes {
                run.take(Step(rawValue: code) ?? .wait3s)
                if run.yieldedInLastStep, !run.switchesAskedInLastStep.isEmpty || !run.rig.machine.isYielding {
                    Issue.record("after steps \(codes.map { Step(rawValue: $0) ?? .wait3s }) (system scope: \(isSystemScope)) the machine yielded, yet asked for \(run.switchesAskedInLastStep) and is \(run.rig.machine.phase)")
                    return
                }
            }
        }
    }

    /// A machine on a server that does what it is asked when ``Step/serverDoesWhatWasAsked``
    /// comes, and a loop that tells it the time after each step, as the engine's does.
    struct Run {
        let speaker = MachineDevices.speaker(microphone: true)
        let headset = MachineDevices.bluetoothHeadset()
        let earpiece = MachineDevices.earpiece()
        var rig: MachineRig
        var asked: [RoutePlan] = []
        var plugged: Set<AudioDevice.ID> = []
        var isConnected = true
        /// The devices the last step's inputs asked to switch to (a route or a profile).
        var switchesAskedInLastStep: [AudioDevice.ID] = []
        /// Whether the last step's inputs announced that the machine yields.
        var yieldedInLastStep = false

        init(isSystemScope: Bool, holdOff: Duration) {
            var configuration = RouteMachine.Configuration()
            configuration.isSystemScope = isSystemScope
            rig = MachineRig([speaker], defaultSink: speaker.sinkName,
                             preferences: PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]), configuration: configuration)
            // A new device waits out the hold-off before the preferences choose it.
            if holdOff > .zero { take(rig.handle(.setAutomaticChoice(AutomaticChoice(holdOff: holdOff)))) }
            take(rig.start())
        }

        mutating func take(_ step: Step) {
            switchesAskedInLastStep.removeAll()
            yieldedInLastStep = false
            switch step {
            case .wait100ms: rig.advance(.milliseconds(100))
            case .wait600ms: rig.advance(.milliseconds(600))
            case .wait3s: rig.advance(.seconds(3))
            case .plugHeadset: plug(headset)
            case .unplugHeadset: unplug(headset)
            case .plugEarpiece: plug(earpiece)
            case .unplugEarpiece: unplug(earpiece)
            case .serverDoesWhatWasAsked:
                guard isConnected, !asked.isEmpty else { break }
                take(rig.confirm(asked.removeFirst()))
            case .someoneElsePicksSpeaker:
                if isConnected { take(rig.serverSetsDefaults(sink: speaker.sinkName)) }
            case .preferBluetooth: take(rig.handle(.setPreferences(PreferenceList([.kind(.bluetooth), .kind(.speakerphone)]))))
            case .preferEarpiece: take(rig.handle(.setPreferences(PreferenceList([.kind(.earpiece), .kind(.speakerphone)]))))
            case .preferBluetoothThenEarpiece:
                take(rig.handle(.setPreferences(PreferenceList([.kind(.bluetooth), .kind(.earpiece), .kind(.speakerphone)]))))
            case .callAudioOn: take(rig.handle(.callAudio(true)))
            case .callAudioOff: take(rig.handle(.callAudio(false)))
            case .speakerOn: take(rig.handle(.setSpeaker(.on)))
            case .loseConnection:
                guard isConnected else { break }
                isConnected = false
                asked.removeAll()
                take(rig.loseConnection())
            case .serverRefusesWhatWasAsked:
                guard isConnected, !asked.isEmpty else { break }
                let plan = asked.removeFirst()
                let now = rig.now
                machine { $0.switchFailed(plan.device.id, refusal(), now: now) }
            case .muteMicrophone: take(rig.handle(.muteMicrophone(true)))
            case .unmuteMicrophone: take(rig.handle(.muteMicrophone(false)))
            case .serverRefusesMute:
                guard isConnected, let source = rig.machine.mutedSources.first else { break }
                let now = rig.now
                machine { $0.microphoneMuteFailed(source, muting: true, refusal(), now: now) }
            case .restoreConnection:
                guard !isConnected else { break }
                isConnected = true
                let (devices, sink, source, now) = (rig.devices, rig.defaultSink, rig.defaultSource, rig.now)
                machine { $0.connectionRestored(devices: devices, defaultSink: sink, defaultSource: source, now: now) }
            }
            // The loop's turn ends as the engine's does.
            let now = rig.now
            if isConnected, rig.machine.isConfirmationOverdue(now: now) { machine { $0.confirmationRechecked() } }
            machine { $0.deadlinePassed(now: now) }
        }

        /// How long ago the machine's deadline passed; nil when it is ahead, or none.
        func deadlineInThePast() -> Duration? {
            guard let deadline = rig.machine.deadline, deadline <= rig.now else { return nil }
            return rig.now - deadline
        }

        private mutating func plug(_ device: AudioDevice) {
            guard isConnected, !plugged.contains(device.id) else { return }
            plugged.insert(device.id)
            take(rig.plug(device))
        }

        private mutating func unplug(_ device: AudioDevice) {
            guard isConnected, plugged.contains(device.id) else { return }
            plugged.remove(device.id)
            // The server falls back to the speaker when the default goes.
            let fallback = rig.defaultSink == device.sinkName ? speaker.sinkName : nil
            take(rig.unplug(device.id, defaultSink: fallback))
        }

        /// An input to the machine, its microphone's mute followed after it, as the engine's
        /// `ManagerCore` does.
        private mutating func machine(_ input: (inout RouteMachine) -> [RouteAction]) {
            let actions = input(&rig.machine)
            take(rig.machine.followMicrophone(actions))
        }

        private mutating func take(_ actions: [RouteAction]) {
            asked += actions.plans
            switchesAskedInLastStep += actions.routedTo + actions.profileSelections.map(\.device)
            if actions.events.contains(where: { if case .yielded = $0 { true } else { false } }) { yieldedInLastStep = true }
        }
    }
}
