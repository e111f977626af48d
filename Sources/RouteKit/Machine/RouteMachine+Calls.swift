import PulseAudio

/// Calls as sessions: the commands that start, change and end them, the call route's order
/// (the call list, the speaker toggle), and the microphone's mute, applied wherever audio is
/// recorded from.
extension RouteMachine {
    /// The implicit call of ACB's facade (``AudioDeviceManager/activateCallAudio()``).
    static let implicitCall: CallSession.ID = "implicit"

    /// Applies a call command to ``calls``; nil when it changes nothing, a refusal when it
    /// names a call that is not (or already) there.
    mutating func applyCallCommand(_ command: RouteCommand) -> Result<Bool, CommandRefusal> {
        switch command {
        case .callAudio(true):
            guard !calls.contains(where: { $0.id == Self.implicitCall }) else { return .success(false) }
            calls.append(CallSession(id: Self.implicitCall, state: .active, origin: .implicit))
        case .callAudio(false):
            guard calls.contains(where: { $0.id == Self.implicitCall }) else { return .success(false) }
            calls.removeAll { $0.id == Self.implicitCall }
        case .startCall(let session):
            guard !calls.contains(where: { $0.id == session.id }) else { return .failure(.callExists(session.id)) }
            calls.append(session)
        case .setCallState(let id, let state):
            guard let index = calls.firstIndex(where: { $0.id == id }) else { return .failure(.noSuchCall(id)) }
            guard calls[index].state != state else { return .success(false) }
            calls[index].state = state
        case .endCall(let id):
            guard calls.contains(where: { $0.id == id }) else { return .failure(.noSuchCall(id)) }
            calls.removeAll { $0.id == id }
        case .endCalls(let origin):
            guard calls.contains(where: { $0.origin == origin }) else { return .success(false) }
            calls.removeAll { $0.origin == origin }
        default:
            return .success(false)
        }
        return .success(true)
    }

    /// Call mode began or ended with the last command: the toggle starts afresh, the profiles
    /// switched for calls go back, and (ending) the microphone is unmuted, as callaudiod does.
    /// Returns the actions and the cards whose profile is put back.
    mutating func callModeChanged() -> (actions: [RouteAction], restoredCards: Set<String>) {
        var actions: [RouteAction] = [.emit(.callAudioChanged(isActive: isCallActive))]
        speaker = nil
        if isCallActive {
            callDefaultSource = defaultSource
            mediaRouteBeforeCall = route?.id
            return (actions, [])
        }
        for (card, original) in callProfiles.sorted(by: { $0.key < $1.key }) {
            actions.append(.restoreProfile(card: card, profile: original, ifStill: ledger.profiles[card]?.selected))
            ledger.forgetProfile(card: card)
        }
        let restored = Set(callProfiles.keys)
        callProfiles.removeAll()
        if isMicrophoneMuted {
            isMicrophoneMuted = false
            actions.append(.emit(.microphoneMuteChanged(isMuted: false)))
        }
        return (actions, restored)
    }

    /// Whether `setting` can be honoured with the devices present; the refusal otherwise.
    func refusal(forSpeaker setting: SpeakerSetting?) -> CommandRefusal? {
        let usable = devices.filter(RoutePolicy.isUsable)
        switch setting {
        case .on?:
            return usable.contains { $0.kind == .speakerphone } ? nil : .noSpeakerphone(devices: usable)
        case .off?:
            return nonSpeakerTiers().isEmpty ? .nothingButSpeaker(devices: usable) : nil
        case nil:
            return nil
        }
    }

    /// The devices to try, best first, grouped as ``RoutePolicy`` groups them: the call list
    /// in call mode, the media list otherwise; the speaker toggle above both.
    func routingTiers() -> [[AudioDevice]] {
        let list = isCallActive ? callPreferences.ordered : preferences.ordered
        var tiers = RoutePolicy.tiers(among: devices, preferences: list, selection: selection, arrivals: arrivals,
                                      automatic: automatic)
        if tiers.isEmpty, !isCallActive, let before = mediaRouteBeforeCall, let device = device(before), RoutePolicy.isUsable(device) {
            // No preference decides media: the route the call found comes back.
            tiers = [[device]]
        }
        switch speaker {
        case nil:
            return tiers
        case .on?:
            let speakers = RoutePolicy.tiers(among: devices, preferences: [.kind(.speakerphone)], selection: nil,
                                             arrivals: arrivals)
            return Self.joined(speakers, tiers)
        case .off?:
            return Self.joined(nonSpeakerTiers(), tiers)
        }
    }

    /// The call list's devices that are not speakerphones (a hand-chosen one first).
    private func nonSpeakerTiers() -> [[AudioDevice]] {
        let chosen = selection.flatMap(device).map { $0.kind == .speakerphone ? nil : $0.id } ?? nil
        return RoutePolicy.tiers(among: devices, preferences: callPreferences.ordered, selection: chosen, arrivals: arrivals,
                                 automatic: automatic)
            .map { $0.filter { $0.kind != .speakerphone } }
            .filter { !$0.isEmpty }
    }

    /// `first`, then what `rest` adds, each device once.
    private static func joined(_ first: [[AudioDevice]], _ rest: [[AudioDevice]]) -> [[AudioDevice]] {
        var seen = Set(first.flatMap { $0.map(\.id) })
        return first + rest.map { $0.filter { seen.insert($0.id).inserted } }.filter { !$0.isEmpty }
    }

    // MARK: The microphone

    /// The source audio is recorded from: the microphone chosen on its own, else the route's
    /// input, else (system scope) the default source when it is a device's input (headphones
    /// or a headset in A2DP: applications record from the built-in microphone). Never a
    /// monitor: devices carry none as their input.
    var microphone: String? {
        if let id = microphoneSelection, let input = device(id)?.input?.deviceName { return input }
        if let input = route?.input?.deviceName { return input }
        guard configuration.isSystemScope, route != nil, let defaultSource,
              devices.contains(where: { $0.input?.deviceName == defaultSource }) else { return nil }
        return defaultSource
    }

    /// Whether `id` names a present device with an input to record from.
    func isMicrophone(_ id: AudioDevice.ID) -> Bool {
        device(id)?.input?.deviceName != nil && device(id)?.availability != .unavailable
    }

    /// Brings the sources' mute in line with ``isMicrophoneMuted`` after `actions`: while
    /// muted, the source recorded from and the one a switch under way is taking to are muted
    /// (before the switch's requests, so that the new source is never live); sources the
    /// machine muted and no longer records from are unmuted. Runs after every input.
    mutating func followMicrophone(_ actions: [RouteAction]) -> [RouteAction] {
        // Not muted and nothing to unmute: the common case, on every switch's path.
        guard isConnected, isMicrophoneMuted || !mutedSources.isEmpty || capturesMuted else { return actions }
        guard configuration.isSystemScope else {
            // Application scope: the application's own capture streams, never a whole source
            // another application may record from.
            guard capturesMuted != isMicrophoneMuted else { return actions }
            capturesMuted = isMicrophoneMuted
            return actions + [.muteCaptureStreams(muted: isMicrophoneMuted)]
        }
        let present = Set(devices.compactMap { $0.input?.deviceName })
        mutedSources.formIntersection(present)
        var wanted = Set<String>()
        if isMicrophoneMuted {
            if let microphone { wanted.insert(microphone) }
            if let pending, let input = input(for: device(pending.device.id) ?? pending.device)?.deviceName {
                wanted.insert(input)
            }
            wanted.formIntersection(present)
        }
        // A refused mute waits for its retry (``microphoneMuteFailed(_:muting:_:now:)``).
        wanted.subtract(refusedMutes)
        let mutes = wanted.subtracting(mutedSources).sorted().map { RouteAction.muteSource($0, muted: true) }
        let unmutes = mutedSources.subtracting(wanted).sorted().map { RouteAction.muteSource($0, muted: false) }
        mutedSources = wanted
        guard !mutes.isEmpty || !unmutes.isEmpty else { return actions }
        // Mutes before the first switch request; unmutes after everything.
        let split = actions.firstIndex(where: \.isSwitchRequest) ?? actions.endIndex
        return Array(actions[..<split]) + mutes + Array(actions[split...]) + unmutes
    }

    /// The server shows `sources` live although the machine muted them (someone restored or
    /// dropped the mute): they are no longer taken as muted, so that the microphone's mute is
    /// applied to them again.
    mutating func microphoneMuteUndone(_ sources: Set<String>) -> [RouteAction] {
        mutedSources.subtract(sources)
        return []
    }

    /// How long a refused mute waits to be tried again when nothing else brings it back first.
    static let muteRetryDelay = Duration.seconds(1)

    /// A mute request (`muting`; else an unmute) was refused: the source is not taken as
    /// muted, and a refused mute is not asked again until the devices change, the mute is
    /// asked for again, or ``muteRetryDelay`` passes. Asking at once would ask forever when
    /// the source has gone and the machine has not heard yet (the engine performs what each
    /// answer asks before it reads the server's events).
    mutating func microphoneMuteFailed(_ source: String, muting: Bool, _ failure: SwitchFailure,
                                       now: ContinuousClock.Instant) -> [RouteAction] {
        mutedSources.remove(source)
        if muting {
            refusedMutes.insert(source)
            if muteRetry == nil { muteRetry = now + Self.muteRetryDelay }
        }
        return [.emit(.microphoneFailed(source: source, reason: failure))]
    }

    /// The refused mutes are tried again (by ``followMicrophone(_:)``, after this input).
    mutating func retryRefusedMutes() {
        refusedMutes.removeAll()
        muteRetry = nil
    }
}

extension Array where Element == RouteAction {
    /// The refusal among the actions, if the command was refused.
    var refusal: CommandRefusal? {
        for case .refuse(let refusal) in self { return refusal }
        return nil
    }
}

extension RouteAction {
    /// A request that puts a route in place: what events decided with it wait for.
    var isSwitchRequest: Bool {
        switch self {
        case .route, .selectProfile: true
        default: false
        }
    }
}
