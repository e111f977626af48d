import Logging
import PulseAudio

/// Deciding and applying the route: one pass at a time, passes coalesced.
extension AudioDeviceManager {
    /// Asks for a pass with `reason` and returns once a pass that saw it has finished. While
    /// a pass runs, requests merge into one more pass (the strongest reason wins), so a storm
    /// of events costs at most one pass after the one running.
    func reconcile(_ reason: RouteChangeReason) async {
        note(reason)
        if isReconciling {
            await withCheckedContinuation { reconcileWaiters.append($0) }
            return
        }
        await drain()
    }

    /// Asks for a pass without waiting for it (the event path).
    func requestReconcile(_ reason: RouteChangeReason) {
        note(reason)
        guard !isReconciling else { return }
        isReconciling = true
        Task { await self.drain(alreadyMarked: true) }
    }

    private func note(_ reason: RouteChangeReason) {
        if let pending = pendingReason, pending.strength >= reason.strength { return }
        pendingReason = reason
    }

    private func drain(alreadyMarked: Bool = false) async {
        isReconciling = true
        while isRunning, let reason = pendingReason {
            pendingReason = nil
            await pass(reason)
        }
        pendingReason = nil
        isReconciling = false
        let waiters = reconcileWaiters
        reconcileWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// One pass: rank the devices, keep the route when the best usable one carries it, else
    /// switch to the first that works, reporting each failure and falling through.
    private func pass(_ reason: RouteChangeReason) async {
        let devices = await deviceList.devices
        let defaultSource = await deviceList.defaultSourceName
        let previous = devicesByID
        remember(devices)
        if let selection = manualSelection, !devices.contains(where: { $0.id == selection && RoutePolicy.isUsable($0) }) {
            logger.info("manual selection dropped: its device went away", metadata: ["device": "\(selection)"])
            manualSelection = nil
        }
        let candidates = RoutePolicy.candidates(among: devices, preferences: preferences, selection: manualSelection,
                                                arrivals: arrivals)
        logger.trace("pass", metadata: ["reason": "\(reason)", "candidates": "\(candidates.map(\.id.rawValue))"])
        var reason = reason
        for candidate in candidates where failures[candidate.id] == nil {
            if reason != .refreshed, isInPlace(candidate, defaultSource: defaultSource) {
                // The default was already right; streams that play elsewhere (pinned there
                // before the manager started, or while it was disconnected) join it.
                if scope == .system, reason == .started || reason == .reconnected, let sink = candidate.output?.deviceName {
                    await moveStreams(toSink: sink, source: candidate.input?.deviceName, selector: nil)
                }
                report(candidate, reason: refine(reason, to: candidate, previous: previous))
                return
            }
            do {
                let routed = try await switchRoute(to: candidate)
                report(routed, reason: refine(reason, to: routed, previous: previous))
                return
            } catch {
                // A default the server has not confirmed in time may still come: the device is
                // tried again on the next pass rather than set aside until it changes.
                if error.step != .verification { failures[candidate.id] = candidate }
                // The route's own device vanishing under the switch is that device failing, not
                // a failed switch: the server announces the default it moved before the device
                // it removes, so a pass can try to put the route back on a device already gone.
                if error.code == .noSuchEntity, candidate.id == selectedAudioDevice?.id {
                    logger.debug("the route's device went away", metadata: ["device": "\(candidate.id)"])
                    reason = .deviceFailed
                } else {
                    emit(.switchFailed(device: candidate, reason: error))
                    reason = .fellThrough
                }
            }
        }
        // No preference applies: the server's own choice stands.
        let route = serverRoute(devices)
        report(route, reason: refine(reason, to: route, previous: previous))
    }

    /// Names an event-driven change by what the pass sees changed since the last pass: the new
    /// route's device appeared (or became usable), or the old one went (or became unusable).
    /// Reasons from API calls and fall-throughs are kept as they are.
    private func refine(_ reason: RouteChangeReason, to route: AudioDevice?,
                        previous: [AudioDevice.ID: AudioDevice]) -> RouteChangeReason {
        guard reason.strength < RouteChangeReason.fellThrough.strength else { return reason }
        let appeared = route.map { route in previous[route.id].map { !RoutePolicy.isUsable($0) } ?? !previous.isEmpty } ?? false
        let oldFailed = selectedAudioDevice.map { old in
            old.id != route?.id && (devicesByID[old.id].map { !RoutePolicy.isUsable($0) } ?? true)
        } ?? false
        // A jack plugged makes the headphones available and the speaker unavailable; a jack
        // pulled makes the headphones unavailable and the speaker merely unknown: the side
        // with positive news names the change.
        if appeared, route?.availability == .available { return .deviceAppeared }
        if oldFailed { return .deviceFailed }
        if appeared { return .deviceAppeared }
        return reason
    }

    /// Records the route and announces it when it is another device than before.
    func report(_ device: AudioDevice?, reason: RouteChangeReason) {
        let before = selectedAudioDevice
        selectedAudioDevice = device
        guard before?.id != device?.id else { return }
        emit(.routeChanged(from: before, to: device, reason: reason))
    }

    /// Where the server sends audio by itself: the default sink's device in system scope;
    /// in application scope the streams stay where the manager last put them, if anywhere.
    private func serverRoute(_ devices: [AudioDevice]) -> AudioDevice? {
        switch scope {
        case .system: return devices.first { $0.isActive && $0.output != nil }
        case .application:
            guard let target = applicationTarget else { return nil }
            return devices.first { $0.id == target.id }
        }
    }

    /// Whether `device` already carries the route, as the server last told the device list.
    private func isInPlace(_ device: AudioDevice, defaultSource: String?) -> Bool {
        if profileToSelect(for: device) != nil { return false }
        switch scope {
        case .system:
            guard device.isActive else { return false }
            guard let source = device.input?.deviceName else { return true }
            return defaultSource == source
        case .application:
            guard let target = applicationTarget else { return false }
            return target.id == device.id && target.output?.deviceName == device.output?.deviceName
                && target.input?.deviceName == device.input?.deviceName
        }
    }

    /// Notes when each device first appeared (for ``RoutePolicy``'s "newest first"), forgets
    /// devices that went, and forgets failures of devices that changed since.
    func remember(_ devices: [AudioDevice]) {
        let present = Set(devices.map(\.id))
        for device in devices where arrivals[device.id] == nil {
            arrivals[device.id] = nextArrival
            nextArrival += 1
        }
        for id in arrivals.keys where !present.contains(id) { arrivals.removeValue(forKey: id) }
        for (id, failed) in failures {
            guard let now = devices.first(where: { $0.id == id }), now.ignoringActivity == failed.ignoringActivity else {
                failures.removeValue(forKey: id)
                continue
            }
        }
        devicesByID = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension RouteChangeReason {
    /// Which reason names a coalesced pass: requests from the API outrank events; a failure
    /// outranks an arrival, which outranks other changes.
    var strength: Int {
        switch self {
        case .changedElsewhere: 0
        case .deviceChanged: 1
        case .reconnected: 2
        case .deviceAppeared: 3
        case .deviceFailed: 4
        case .fellThrough: 5
        case .started, .preferencesChanged, .selectionChanged, .callStarted, .callEnded, .refreshed, .stopped: 6
        }
    }
}

extension AudioDevice {
    /// The device without its ``isActive`` flag, for telling real changes from route moves.
    var ignoringActivity: AudioDevice {
        var copy = self
        copy.isActive = false
        return copy
    }
}
