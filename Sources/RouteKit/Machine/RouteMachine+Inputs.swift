import PulseAudio

/// The machine's inputs: what the server shows, the API's commands, what the executor
/// reports, and time.
extension RouteMachine {
    /// A run begins: it reads the server, and routes nothing until
    /// ``start(devices:defaultSink:defaultSource:configured:now:)``.
    mutating func connecting() -> [RouteAction] {
        changeConnection(to: .connecting)
    }

    /// The run could not read the server at start: `error` when the server's connection said
    /// why (the manager is then `.failed`), nil when the start ended otherwise, as when it was
    /// cancelled (the manager is then as before any run: `.idle`).
    mutating func startFailed(_ error: PulseError?) -> [RouteAction] {
        changeConnection(to: error.map(ConnectionState.failed) ?? .idle)
    }

    /// The first look at the server: what it shows, and the user's configured defaults when
    /// they could be read.
    mutating func start(devices: [AudioDevice], defaultSink: String?, defaultSource: String?,
                        configured: ConfiguredDefaults?, now: ContinuousClock.Instant) -> [RouteAction] {
        ledger.begin(defaultSink: defaultSink, defaultSource: defaultSource, configured: configured)
        // A subscriber from before the start learns that the manager follows a server now,
        // even when there is nothing to route.
        let connected = changeConnection(to: .ready)
        apply(devices: devices, defaultSink: defaultSink, defaultSource: defaultSource)
        newcomers.removeAll()
        return connected + decide(.started, now: now)
    }

    /// The server's devices or defaults changed. `added` and `removed` are the device ids
    /// that appeared and went since the last update.
    mutating func update(devices: [AudioDevice], defaultSink: String?, defaultSource: String?,
                         added: Set<AudioDevice.ID>, removed: Set<AudioDevice.ID>,
                         now: ContinuousClock.Instant) -> [RouteAction] {
        guard isConnected else { return [] }
        let old = self.devices
        let diff = DeviceListDiff(from: old, to: devices)
        let defaultsMoved = defaultSink != self.defaultSink
        let previousSink = self.defaultSink, previousSource = self.defaultSource
        // A default where there was none: the session manager choosing (WirePlumber back
        // after a crash), no one's choice against the route. What waited for want of a default
        // is decided on again.
        let defaultAppeared = configuration.isSystemScope && previousSink == nil && defaultSink != nil
        let oldRoute = route
        apply(devices: devices, defaultSink: defaultSink, defaultSource: defaultSource, diff: diff)
        for id in added.sorted(by: { $0.rawValue < $1.rawValue }) {
            // Back again (a reconnect): whatever it failed before was the old one's failure.
            refused.removeValue(forKey: id)
            unconfirmed.removeValue(forKey: id)
            // An id the list does not show (merged into another device) is no arrival.
            if devices.contains(where: { $0.id == id }) { noteArrival(id) }
        }
        var actions: [RouteAction] = []
        // What a person sees changed: a device shown or hidden (unavailable), or its details.
        var shownChanged = diff.gone.contains { old[$0].availability != .unavailable }
        var detailsChanged = false
        // Devices that became usable count as arrivals too (a jack plugged in).
        var becameUsable: [AudioDevice.ID] = []
        for (index, device) in devices.enumerated() {
            let before = diff.previous[index].map { old[$0] }
            if (device.availability != .unavailable) != (before.map { $0.availability != .unavailable } ?? false) {
                shownChanged = true
            }
            if let before, !before.differsOnlyInActivity(from: device) { detailsChanged = true }
            if RoutePolicy.isUsable(device), !(before.map(RoutePolicy.isUsable) ?? false) { becameUsable.append(device.id) }
        }
        if shownChanged || detailsChanged {
            actions.append(.emit(.devicesChanged(usableDevices)))
        }
        newcomers.formUnion(becameUsable)
        noteHoldOff(added: added, becameUsable: becameUsable, now: now)
        if !added.isEmpty || !removed.isEmpty || !becameUsable.isEmpty { stopYielding() }
        // What the server refused may be otherwise now (a source that went is no longer wanted).
        retryRefusedMutes()
        if !added.isEmpty || !removed.isEmpty { lastDeviceChurn = now }

        // The switch under way.
        if let pending {
            if !isStillCandidate(pending.device.id), !isBringingUpProfile(pending) {
                endSwitch()
                actions += fail(pending.device, SwitchFailure(step: stepName(pending.stage),
                                                              message: "\(pending.device.id) went away before the switch was done"),
                                setAside: false, now: now)
                return actions
            }
            switch pending.stage {
            case .profile(let profile):
                if let device = device(pending.device.id), device.output?.deviceName != nil, device.output?.profile == profile,
                   !isCallActive || device.input == nil || device.input?.deviceName != nil {
                    actions += route(to: device, reason: pending.reason, now: now, previous: pending)
                }
                return actions
            case .confirming(let sink):
                if configuration.isSystemScope, defaultSink == sink {
                    if defaultAppeared { unconfirmed.removeAll() }
                    actions += confirm(pending, now: now)
                    return actions + decide(.deviceChanged, now: now)
                }
                return actions
            }
        }

        // No switch under way: what changed decides the reason.
        if configuration.isSystemScope, defaultsMoved, let current, unconfirmed[current.id] != nil {
            // A switch given up for want of confirmation was done after all: the server was
            // slow, not unwilling. It is confirmed, not undone (and when the default appeared
            // where there was none, what else waited for a default is decided on again).
            if defaultAppeared { unconfirmed.removeAll() } else { unconfirmed.removeValue(forKey: current.id) }
            let late = PendingSwitch(device: current, stage: .confirming(sink: defaultSink ?? ""), reason: .deviceChanged,
                                     deadline: now, previousSink: previousSink, previousSource: previousSource)
            return actions + confirm(late, now: now) + decide(.deviceChanged, now: now)
        }
        if defaultAppeared { unconfirmed.removeAll() }
        let routeLost = oldRoute.map { old in !(device(old.id).map(RoutePolicy.isUsable) ?? false) } ?? false
        // The server itself moving the default to a device that just arrived (WirePlumber
        // does) is no one taking it away: the arrival is decided on as such.
        // Nor is the server falling back while the route's device is re-created (removed and
        // added again in one batch, as in a reconnect storm).
        let serverPickedNewcomer = current.map { newcomers.contains($0.id) } ?? false
        let routeRecreated = oldRoute.map { added.contains($0.id) } ?? false
        // Nor is the default leaving a device that was not the route (the server moving on
        // from a device it had picked itself): only a default taken off the route is.
        // And a default that moves in the same batch as a device goes is the server's reaction.
        let echoOfAFailure = lastFailure.map { now - $0 < configuration.failureEcho } ?? false
        let tookOurs = oldRoute?.output?.deviceName == previousSink && removed.isEmpty && !echoOfAFailure && !defaultAppeared
        if configuration.isSystemScope, defaultsMoved, !routeLost, !serverPickedNewcomer, !routeRecreated, tookOurs,
           let oldRoute, current?.id != oldRoute.id {
            // Someone else moved the default away from a route that is still there.
            ledger.defaultSinkTaken()
            actions += yieldIfOverLimit(to: current, count: countOverride(now: now))
            if isYielding {
                return actions + report(current, reason: .changedElsewhere)
            }
            return actions + decide(.changedElsewhere, now: now)
        }
        if defaultsMoved, routeLost, let oldRoute, !removed.contains(oldRoute.id), configuration.isSystemScope {
            // The route's device became unusable earlier and someone chose another default since.
            ledger.defaultSinkTaken()
        }
        if configuration.isSystemScope, defaultsMoved, removed.isEmpty, let ours = ledger.setSink, previousSink != ours,
           !devices.contains(where: { $0.output?.deviceName == ours }) {
            // The manager's sink is gone and the server's fallback was seen already: a default
            // that moves again is someone's choice, however soon after the failure it comes,
            // and stop() leaves it alone.
            ledger.defaultSinkTaken()
        }
        if isYielding { return actions + report(current, reason: .changedElsewhere) }
        let reason: RouteChangeReason = routeLost ? .deviceFailed : (!added.isEmpty || !becameUsable.isEmpty) ? .deviceAppeared
            : defaultsMoved && !defaultAppeared ? .changedElsewhere : .deviceChanged
        return actions + decide(reason, now: now)
    }

    /// The server's connection changed, in the client's words: each state but `.ready` is
    /// told as it comes (every reconnection attempt, the client giving up, its shutdown).
    /// Leaving `.ready` loses the server: nothing can be switched until it is back, which
    /// ``connectionRestored(devices:defaultSink:defaultSource:now:)`` says, with what the
    /// server shows then; a bare `.ready` changes nothing here.
    mutating func connectionChanged(to state: ConnectionState) -> [RouteAction] {
        guard state != .ready else { return [] }
        let wasConnected = isConnected
        let told = changeConnection(to: state)
        guard wasConnected else { return told }
        // What the server did meanwhile is unknown: the route is nowhere the manager can name.
        return told + report(nil, reason: .disconnected)
    }

    /// The connection is back, with what the server shows now (a restarted server has new
    /// indexes and maybe other devices). Failures are forgotten: they were the old server's.
    mutating func connectionRestored(devices: [AudioDevice], defaultSink: String?, defaultSource: String?,
                                     now: ContinuousClock.Instant) -> [RouteAction] {
        var actions = changeConnection(to: .ready)
        // A switch under way or a yield belonged to the old server.
        phase = .settled
        // A restarted server forgot every mute: the microphone's is applied again.
        mutedSources.removeAll()
        capturesMuted = false
        retryRefusedMutes()
        refused.removeAll()
        unconfirmed.removeAll()
        overrides.removeAll()
        holdOff = ArrivalHoldOff()
        let known = Set(self.devices.map(\.id))
        apply(devices: devices, defaultSink: defaultSink, defaultSource: defaultSource)
        for device in devices where !known.contains(device.id) { noteArrival(device.id) }
        newcomers.removeAll()
        actions.append(.emit(.devicesChanged(usableDevices)))
        // Whatever the old server showed is gone: the route is decided afresh.
        return actions + decide(.reconnected, now: now)
    }

    /// An API call.
    mutating func handle(_ command: RouteCommand, now: ContinuousClock.Instant) -> [RouteAction] {
        let wasCallMode = isCallActive
        let callsBefore = calls
        var reason: RouteChangeReason
        var actions: [RouteAction] = []
        if !isCallActive, command.changesMediaPreferences {
            // Outside calls the toggle, and the route a call found, hold until the user says otherwise.
            speaker = nil
            mediaRouteBeforeCall = nil
        }
        switch command {
        case .setPreferences(let list):
            preferences = list
            reason = .preferencesChanged
        case .setPreferred(let preference):
            preferences.preferred = preference
            reason = .preferencesChanged
        case .setFallback(let preference):
            preferences.fallback = preference
            reason = .preferencesChanged
        case .select(let id):
            selection = id
            // The latest choice by hand wins over the toggle.
            if id != nil { speaker = nil }
            reason = .selectionChanged
        case .callAudio, .startCall, .setCallState, .endCall, .endCalls:
            switch applyCallCommand(command) {
            case .failure(let refusal): return [.refuse(refusal)]
            case .success(false): return []
            case .success(true): break
            }
            actions.append(.emit(.callsChanged(calls)))
            // A call rung, held or resumed while call mode stays: the route stays too.
            guard isCallActive != wasCallMode else { return actions }
            reason = isCallActive ? .callStarted : .callEnded
        case .setCallPreferences(let list):
            callPreferences = list
            reason = .preferencesChanged
        case .setSpeaker(let setting):
            if let refusal = refusal(forSpeaker: setting) { return [.refuse(refusal)] }
            speaker = setting
            reason = .speakerToggled
        case .selectMicrophone(let id):
            if let id, !isMicrophone(id) { return [.refuse(.noSuchMicrophone(id))] }
            guard id != microphoneSelection else { return [] }
            microphoneSelection = id
            reason = .selectionChanged
        case .muteMicrophone(let muted):
            if muted, configuration.isSystemScope, microphone == nil { return [.refuse(.noMicrophone)] }
            // Asked again: applied again, in case someone changed the source's mute since (an
            // unmute too: the microphone is taken as muted, so that the mute's follower unmutes it).
            if muted { mutedSources.removeAll() } else if let microphone { mutedSources.insert(microphone) }
            retryRefusedMutes()
            guard muted != isMicrophoneMuted else { return [] }
            isMicrophoneMuted = muted
            return [.emit(.microphoneMuteChanged(isMuted: muted))]
        case .refresh:
            reason = .refreshed
        case .defaultSinkSeenElsewhere(let sink):
            // The connection's view of the default is read again when another client's differs:
            // pipewire-pulse's copy of the graph can miss a change for good. A switch under way
            // has its own recheck; application scope routes streams, not defaults.
            guard isConnected, configuration.isSystemScope, pending == nil, sink != defaultSink else { return [] }
            return [.readDefaultsAfresh]
        case .setAutomaticChoice(let choice):
            automatic = choice
            reason = .preferencesChanged
        }
        var restoredCards: Set<String> = []
        if isCallActive != wasCallMode {
            let change = callModeChanged()
            actions += change.actions
            restoredCards = change.restoredCards
        } else if calls != callsBefore {
            return actions
        }
        refused.removeAll()
        unconfirmed.removeAll()
        overrides.removeAll()
        guard isConnected else { return actions }
        // A new decision replaces a switch under way, and ends a yield.
        phase = .settled
        actions += decide(reason, now: now)
        if wasCallMode, !isCallActive, let before = callDefaultSource, configuration.isSystemScope {
            callDefaultSource = nil
            // The route's microphone stays only if it did not come with a call profile being put back.
            let keepsInput = route?.input?.deviceName != nil && !(route?.card.map(restoredCards.contains) ?? false)
            if !keepsInput, before != defaultSource { actions.append(.restoreDefaultSource(before)) }
        }
        return actions
    }

    /// A step of the switch to `id` failed.
    mutating func switchFailed(_ id: AudioDevice.ID, _ failure: SwitchFailure, now: ContinuousClock.Instant) -> [RouteAction] {
        // A default that names a device gone or not there yet: whatever the server chooses
        // next is its reaction, even when a newer switch already replaced this one.
        if failure.code == .noSuchEntity { lastFailure = now }
        guard let pending, pending.device.id == id else { return [] }
        endSwitch()
        guard failure.isAboutTheDevice else {
            // The connection went, the server did not answer in time, or the request was cut
            // short: the device is not to blame. The route is decided again on the next event
            // (a reconnection brings one), not at once, so that a cancelled loop cannot spin.
            return []
        }
        return fail(device(id) ?? pending.device, failure, setAside: true, now: now)
    }

    /// In application scope: the selected streams were moved to `device`.
    mutating func applicationRouteApplied(_ device: AudioDevice, now: ContinuousClock.Instant) -> [RouteAction] {
        guard let pending, pending.device.id == device.id else { return [] }
        endSwitch()
        return report(device, reason: pending.reason)
    }

    /// Time passed: a switch that has not completed by its deadline is given up, devices
    /// whose hold-off is over are decided on, and refused mutes are tried again.
    mutating func deadlinePassed(now: ContinuousClock.Instant) -> [RouteAction] {
        if let muteRetry, now >= muteRetry { retryRefusedMutes() }
        let timedOut = switchDeadlinePassed(now: now)
        return timedOut + holdOffPassed(now: now)
    }

    /// A switch that has not completed by its deadline is given up.
    private mutating func switchDeadlinePassed(now: ContinuousClock.Instant) -> [RouteAction] {
        guard let pending, now >= pending.deadline else { return [] }
        endSwitch()
        let failure = switch pending.stage {
        case .profile(let profile):
            SwitchFailure(step: .profile, message: "profile \"\(profile)\" of \(pending.device.card ?? "its card") brought up no sink for \(pending.device.id) in time")
        case .confirming(let sink):
            SwitchFailure(step: .verification,
                          message: "the server kept \(defaultSink.map { "\"\($0)\"" } ?? "no sink") as the default instead of \"\(sink)\"")
        }
        var answer = (waits: true, actions: [RouteAction]())
        if configuration.isSystemScope, case .confirming = pending.stage, isStillCandidate(pending.device.id) {
            // The device is there, yet it is not the default: no default at all, the server's
            // fallback while devices came and went, or someone else's default (a rival daemon
            // whose answer crossed ours), which alone counts toward yielding.
            answer = answerMissedConfirmation(missedConfirmation(of: pending.device.id, now: now), now: now)
        }
        if answer.waits { unconfirmed[pending.device.id] = device(pending.device.id) ?? pending.device }
        return fail(pending.device, failure, setAside: false, now: now) + answer.actions
    }

    /// The executor made a change: written in the ledger, for stop().
    mutating func record(_ change: RecordedChange) {
        switch change {
        case .defaultSink(let sink): ledger.noteDefaultSink(sink)
        case .defaultSource(let source): ledger.noteDefaultSource(source)
        case .defaultSinkUnanswered(let sink): ledger.noteUnansweredDefaultSink(sink)
        case .defaultSourceUnanswered(let source): ledger.noteUnansweredDefaultSource(source)
        case .port(let device, let output, let original, let selected):
            ledger.notePort(device: device, output: output, original: original, selected: selected)
        case .profile(let card, let original, let selected):
            ledger.noteProfile(card: card, original: original, selected: selected)
            if isCallActive, callProfiles[card] == nil { callProfiles[card] = original }
        case .streamMoved(let index, let output, let name, let client, let from, let to):
            ledger.noteMove(stream: index, output: output, name: name, client: client, from: from, to: to)
        case .streamGone(let index, let output):
            ledger.forgetStream(index, output: output)
        }
    }

    /// The manager stopped and put things back; `restoredRoute` is where audio goes now, and
    /// the connection is `.shutDown`. Call audio ends with the run (a restarted manager starts
    /// outside a call), and so do the ledger and the records of failures.
    mutating func stopped(restoredRoute: AudioDevice?) -> [RouteAction] {
        let actions = report(restoredRoute, reason: .stopped) + changeConnection(to: .shutDown)
        route = nil
        calls.removeAll()
        speaker = nil
        mediaRouteBeforeCall = nil
        isMicrophoneMuted = false
        mutedSources.removeAll()
        capturesMuted = false
        callProfiles.removeAll()
        callDefaultSource = nil
        refused.removeAll()
        unconfirmed.removeAll()
        overrides.removeAll()
        recentSinks.removeAll()
        recentSources.removeAll()
        ledger = RestorationLedger()
        return actions
    }

    // MARK: Helpers

    /// Takes `state` as the connection, and tells subscribers when it is another one.
    private mutating func changeConnection(to state: ConnectionState) -> [RouteAction] {
        guard state != connection else { return [] }
        // Leaving the server ends a switch under way and a yield; coming back, nothing is
        // under way yet.
        phase = state == .ready ? .settled : .offline(state)
        return [.emit(.connectionChanged(state))]
    }

    /// Takes the server's devices and defaults. `diff`, from the devices before to these,
    /// spares the arrivals a lookup of every id: those the machine had keep their place.
    /// (``arrivals`` holds exactly the ids of ``devices`` between inputs.)
    private mutating func apply(devices: [AudioDevice], defaultSink: String?, defaultSource: String?,
                                diff: DeviceListDiff? = nil) {
        let old = self.devices
        self.devices = devices
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
        if let diff {
            for (index, device) in devices.enumerated() where diff.previous[index] == nil && arrivals[device.id] == nil {
                noteArrival(device.id)
            }
            for index in diff.gone { arrivals.removeValue(forKey: old[index].id) }
        } else {
            let present = Set(devices.map(\.id))
            for device in devices where arrivals[device.id] == nil { noteArrival(device.id) }
            for id in arrivals.keys where !present.contains(id) { arrivals.removeValue(forKey: id) }
        }
        // A device that changed since it failed may work now.
        if !refused.isEmpty {
            refused = refused.filter { id, failed in device(id).map { $0.differsOnlyInActivity(from: failed) } ?? false }
        }
        if !unconfirmed.isEmpty {
            unconfirmed = unconfirmed.filter { id, failed in device(id).map { $0.differsOnlyInActivity(from: failed) } ?? false }
        }
        // The selection holds while its device is present and not unavailable (a card between
        // two profiles, without a sink for a moment, is still there).
        if let selection, (device(selection)?.availability ?? .unavailable) == .unavailable { self.selection = nil }
    }

    private mutating func noteArrival(_ id: AudioDevice.ID) {
        arrivals[id] = nextArrival
        nextArrival += 1
        newcomers.insert(id)
    }

    /// Reports a failed switch and falls through to the next device.
    private mutating func fail(_ device: AudioDevice, _ failure: SwitchFailure, setAside: Bool,
                               now: ContinuousClock.Instant) -> [RouteAction] {
        if setAside { refused[device.id] = self.device(device.id) ?? device }
        // The device vanished under the switch: the server will choose again by itself.
        if failure.code == .noSuchEntity || !isStillCandidate(device.id) { lastFailure = now }
        return [.emit(.switchFailed(device: device, reason: failure))] + decide(.fellThrough, now: now)
    }

    /// Whether the card of a switch's device is on the requested profile and still bringing
    /// up its sink: waited for until the profile timeout, not taken for a device that went away.
    private func isBringingUpProfile(_ pending: PendingSwitch) -> Bool {
        guard case .profile(let profile) = pending.stage, let device = device(pending.device.id) else { return false }
        return device.availability != .unavailable && device.output?.profile == profile
    }

    private func stepName(_ stage: PendingSwitch.Stage) -> SwitchFailure.Step {
        switch stage {
        case .profile: .profile
        case .confirming: .verification
        }
    }

    func device(_ id: AudioDevice.ID) -> AudioDevice? { devices.first { $0.id == id } }
}

extension RouteCommand {
    /// Whether the command is the user speaking about media: new preferences or a choice by hand.
    var changesMediaPreferences: Bool {
        switch self {
        case .setPreferences, .setPreferred, .setFallback, .select: true
        default: false
        }
    }
}

extension SwitchFailure {
    /// Whether the server refused something about the device itself, which sets the device
    /// aside until it changes. Connection loss, timeouts and cancellation never do.
    var isAboutTheDevice: Bool {
        guard let code else { return step != .verification && step != .moveStreams && !isCancellation }
        // A server that cannot take a default at all (pipewire-pulse while WirePlumber is
        // gone: no "default" metadata) refuses every device alike.
        if code == .notSupported, step == .defaultSink || step == .defaultSource { return false }
        return ![.connectionTerminated, .connectionRefused, .timeout, .badState, .invalidServer, .protocolError].contains(code)
    }
}

extension AudioDevice {
    /// Whether the two are the same but for ``isActive``.
    func differsOnlyInActivity(from other: AudioDevice) -> Bool {
        var other = other
        other.isActive = isActive  // no copy when they agree: then `==` is an identity check
        return self == other
    }
}
