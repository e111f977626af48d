import PulseAudio

/// Deciding the route: which device, whether it is already in place, and the switch to it.
extension RouteMachine {
    /// Where audio goes now without the machine: the default sink's device (system scope),
    /// or the device the selected streams were last put on (application scope).
    var current: AudioDevice? {
        if configuration.isSystemScope { return devices.first { $0.isActive && $0.output != nil } }
        guard let route else { return nil }
        return device(route.id)
    }

    /// Chooses the route and starts a switch when it is not in place.
    ///
    /// The first tier of candidates (the speaker toggle, the manual selection, else the first
    /// entry of the preference list in force, the call list in call mode, that matches a usable
    /// device) wins. A route already on a device of that tier stays,
    /// unless a device of the tier appeared since the last decision and ranks first (the
    /// headset just switched on). With no candidate, the server's own choice stands.
    mutating func decide(_ reason: RouteChangeReason, now: ContinuousClock.Instant) -> [RouteAction] {
        guard isConnected else { return [] }
        let tiers = candidateTiers(now: now)
        let appeared = newcomers
        newcomers.removeAll()
        if let pending {
            // A switch under way stands while its device is still the first choice.
            if tiers.first?.first?.id == pending.device.id { return [] }
            endSwitch()
        }
        // Yielding, the default someone else chose is the route (after the switch that met
        // the limit failed: the route fell through to it).
        if isYielding { return report(current, reason: reason) }
        guard let tier = tiers.first, var target = tier.first else {
            return report(current, reason: reason)
        }
        if let current, let same = tier.first(where: { $0.id == current.id }),
           !(appeared.contains(target.id) && target.id != current.id) {
            target = same
        }
        let refined = refine(reason, to: target, appeared: appeared)
        if isInPlace(target) {
            return report(target, reason: refined)
        }
        return beginSwitch(to: target, reason: refined, now: now)
    }

    /// What the machine would switch to if the route's sink were removed now, when that can be
    /// said ahead: system scope, connected, the route settled and in place (no switch under
    /// way, not yielding, no call audio), and a fallback on another sink that needs no profile.
    /// The engine arms it as a standing order (``StandingFallback``), sent as the removal is
    /// read; the decision the removal brings, made before the order's change is read, asks for
    /// the same fallback, which by then changes nothing.
    ///
    /// Nil for a route that offers a call profile (a Bluetooth headset): its sink also goes
    /// when its card merely changes profile, and the headset stays.
    func standingFallback(now: ContinuousClock.Instant) -> (routeSink: String, target: AudioDevice, targetSink: String)? {
        guard configuration.isSystemScope, phase == .settled, !isCallActive,
              let routed = route, let route = device(routed.id), route.isActive, route.callProfile == nil,
              let routeSink = route.output?.deviceName else { return nil }
        // The first tier with a device left once the route's sink is gone, as decide() takes it.
        for tier in candidateTiers(now: now) {
            guard let target = tier.first(where: { $0.output?.deviceName != routeSink }) else { continue }
            guard profileToSelect(for: target) == nil, let sink = target.output?.deviceName else { return nil }
            return (routeSink, target, sink)
        }
        return nil
    }

    /// The routing tiers without the devices set aside (refused, unconfirmed) or held back.
    /// Not `mutating`, so that its closures borrow the machine instead of copying it.
    private func candidateTiers(now: ContinuousClock.Instant) -> [[AudioDevice]] {
        let tiers = routingTiers()
        guard !refused.isEmpty || !unconfirmed.isEmpty || !holdOff.isEmpty else { return tiers }
        return tiers.map { $0.filter { refused[$0.id] == nil && unconfirmed[$0.id] == nil && !isHeldBack($0.id, now: now) } }
            .filter { !$0.isEmpty }
    }

    /// Whether `device` already carries the route: no profile to select, and (system scope)
    /// its output is the default sink on its port and its input, if any, the default source.
    func isInPlace(_ device: AudioDevice) -> Bool {
        if profileToSelect(for: device) != nil { return false }
        if configuration.isSystemScope {
            guard device.isActive else { return false }
            guard let source = input(for: device)?.deviceName else { return true }
            return defaultSource == source
        }
        guard let route else { return false }
        return route.id == device.id && route.output?.deviceName == device.output?.deviceName
            && route.input?.deviceName == device.input?.deviceName
    }

    /// Where audio is recorded from while `device` carries the route: the microphone chosen
    /// on its own while it is there, else the device's own input.
    func input(for device: AudioDevice) -> AudioDevice.Endpoint? {
        if let id = microphoneSelection, let chosen = self.device(id)?.input, chosen.deviceName != nil { return chosen }
        return device.input
    }

    /// The card profile `device` needs now: its call profile while call audio is on (so its
    /// microphone works), else the profile that offers its output; nil when the active one does.
    func profileToSelect(for device: AudioDevice) -> String? {
        if isCallActive, let callProfile = device.callProfile {
            let carriesBoth = device.output?.deviceName != nil && device.input?.deviceName != nil
            return carriesBoth && device.output?.profile == callProfile ? nil : callProfile
        }
        return device.requiredProfile
    }

    /// Whether `id` is still worth switching to: present and usable.
    func isStillCandidate(_ id: AudioDevice.ID) -> Bool {
        device(id).map(RoutePolicy.isUsable) ?? false
    }

    /// Starts the switch: the profile first when one is needed, else ports and defaults.
    private mutating func beginSwitch(to device: AudioDevice, reason: RouteChangeReason,
                                      now: ContinuousClock.Instant) -> [RouteAction] {
        let previous = PendingSwitch(device: device, stage: .confirming(sink: ""), reason: reason, deadline: now,
                                     previousSink: defaultSink, previousSource: defaultSource)
        if let profile = profileToSelect(for: device), let card = device.card {
            phase = .switching(PendingSwitch(device: device, stage: .profile(profile), reason: reason,
                                             deadline: now + configuration.profileTimeout,
                                             previousSink: defaultSink, previousSource: defaultSource))
            return [.selectProfile(card: card, profile: profile, device: device.id)]
        }
        return route(to: device, reason: reason, now: now, previous: previous)
    }

    /// Asks for ports and defaults (or streams) of a device whose profile is right.
    mutating func route(to device: AudioDevice, reason: RouteChangeReason, now: ContinuousClock.Instant,
                        previous: PendingSwitch) -> [RouteAction] {
        guard let sink = device.output?.deviceName else {
            endSwitch()
            return [.emit(.switchFailed(device: device, reason: SwitchFailure(
                step: .profile, message: "\(device.id) has no sink in the card's active profile")))] + decide(.fellThrough, now: now)
        }
        let input = input(for: device)
        let source = input?.deviceName
        let recheck = configuration.confirmationRecheck < configuration.confirmationTimeout
            ? now + configuration.confirmationRecheck : nil
        let pending = PendingSwitch(device: device, stage: .confirming(sink: sink), reason: reason,
                                    deadline: now + configuration.confirmationTimeout,
                                    previousSink: previous.previousSink, previousSource: previous.previousSource,
                                    recheck: recheck)
        phase = .switching(pending)
        let plan = RoutePlan(device: device, sink: sink, sinkPort: device.output?.port, source: source,
                             sourcePort: source == nil ? nil : input?.port,
                             setsSink: configuration.isSystemScope && defaultSink != sink,
                             setsSource: configuration.isSystemScope && source != nil && defaultSource != source)
        var actions: [RouteAction] = [.route(plan)]
        if configuration.isSystemScope, !plan.setsSink {
            // Already the default (only the input or a port was missing): nothing to await.
            actions += confirm(pending, now: now)
        }
        return actions
    }

    /// The server reported the default a switch asked for: the route is there.
    mutating func confirm(_ done: PendingSwitch, now: ContinuousClock.Instant) -> [RouteAction] {
        endSwitch()
        let confirmed = device(done.device.id) ?? done.device
        ledger.defaultSinkConfirmed()
        // Where streams that follow the route may still be: the default when the switch began,
        // the route before it, and the routes before that (when switches come fast, the server
        // may still be moving a stream the last switch looked for elsewhere).
        var strays: [RouteAction] = []
        if let sink = confirmed.output?.deviceName {
            func unique(_ first: String?, _ second: String?, then recent: [String], except target: String) -> [String] {
                // At most six names (the default, the route, four recent ones): compared, not
                // hashed, and gathered without building a list of them first.
                var kept: [String] = []
                func keep(_ name: String?) {
                    if let name, name != target, !kept.contains(name) { kept.append(name) }
                }
                keep(first)
                keep(second)
                for name in recent.reversed() { keep(name) }
                return kept
            }
            let source = confirmed.input?.deviceName
            let fromSinks = unique(done.previousSink, route?.output?.deviceName, then: recentSinks, except: sink)
            let fromSources = source.map {
                unique(done.previousSource, route?.input?.deviceName, then: recentSources, except: $0)
            } ?? []
            if !fromSinks.isEmpty || !fromSources.isEmpty {
                strays.append(.moveStrays(fromSinks: fromSinks, toSink: sink, fromSources: fromSources, toSource: source))
            }
        }
        return report(confirmed, reason: done.reason) + strays
    }

    /// Records the route, and announces it when it is another device, or the same device with
    /// another input, than before.
    mutating func report(_ device: AudioDevice?, reason: RouteChangeReason) -> [RouteAction] {
        let before = route
        route = device
        if !isCallActive, let device, device.id == mediaRouteBeforeCall {
            // Media is back where the call found it.
            mediaRouteBeforeCall = nil
        }
        if let sink = device?.output?.deviceName { remember(sink: sink, source: device?.input?.deviceName) }
        if before?.id != device?.id {
            return [.emit(.routeChanged(from: before, to: device, reason: reason))]
        }
        if let device, before?.input?.deviceName != device.input?.deviceName {
            return [.emit(.inputChanged(route: device))]
        }
        return []
    }

    /// Names an event-driven change by what happened to the devices: the new route's device
    /// appeared, or the old one went. Reasons from API calls and fall-throughs stay.
    private func refine(_ reason: RouteChangeReason, to target: AudioDevice, appeared: Set<AudioDevice.ID>) -> RouteChangeReason {
        switch reason {
        case .deviceChanged, .changedElsewhere, .deviceAppeared, .deviceFailed:
            // A jack plugged makes the headphones available and the speaker unavailable; a
            // jack pulled makes the headphones unavailable and the speaker merely unknown: the
            // side with positive news names the change.
            let arrived = appeared.contains(target.id)
            let oldFailed = route.map { $0.id != target.id && !isStillCandidate($0.id) } ?? false
            if arrived, target.availability == .available { return .deviceAppeared }
            if oldFailed || reason == .deviceFailed { return .deviceFailed }
            if arrived { return .deviceAppeared }
            return reason == .deviceAppeared ? .deviceChanged : reason
        default:
            return reason
        }
    }

    /// Notes the route's sink and source among the recent ones.
    private mutating func remember(sink: String, source: String?) {
        recentSinks.removeAll { $0 == sink }
        recentSinks.append(sink)
        if recentSinks.count > Self.recentRoutes { recentSinks.removeFirst() }
        guard let source else { return }
        recentSources.removeAll { $0 == source }
        recentSources.append(source)
        if recentSources.count > Self.recentRoutes { recentSources.removeFirst() }
    }
}
