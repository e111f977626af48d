import PulseAudio

/// Choosing the default sink and source: PulseAudio 16's `compare_sinks`, `compare_sources`,
/// `pa_core_update_default_sink`, `pa_core_update_default_source` and
/// `pa_core_set_configured_default_sink/source` (src/pulsecore/core.c).
extension SimulationState {
    /// > 0 when `a` is the better default, < 0 when `b` is, 0 for a tie.
    func compare(_ a: DeviceRecord, _ b: DeviceRecord) -> Int {
        // Available devices always beat unavailable ones.
        let aUnavailable = activePortAvailability(a) == .unavailable
        let bUnavailable = activePortAvailability(b) == .unavailable
        if aUnavailable, !bUnavailable { return -1 }
        if bUnavailable, !aUnavailable { return 1 }
        // The configured default beats any other.
        let configured = configuredDefault[a.side]
        if configured != nil, b.name == configured { return -1 }
        if configured != nil, a.name == configured { return 1 }
        if a.side == .input {
            // Monitor sources lose to non-monitor sources.
            if a.monitorOf != nil, b.monitorOf == nil { return -1 }
            if a.monitorOf == nil, b.monitorOf != nil { return 1 }
        }
        if a.priority < b.priority { return -1 }
        if a.priority > b.priority { return 1 }
        if a.side == .input, let aSink = a.monitorOf.flatMap({ devices.output[$0] }),
           let bSink = b.monitorOf.flatMap({ devices.output[$0] }) {
            return compare(aSink, bSink)
        }
        // Otherwise keep the current default, to avoid moving streams for nothing.
        if b.index == defaultDevice[a.side] { return -1 }
        if a.index == defaultDevice[a.side] { return 1 }
        return 0
    }

    /// `pa_core_update_default_sink/source`: picks the best linked device; when that changes
    /// the default, posts a server change and moves the old default's streams along.
    mutating func updateDefault(_ side: Side) {
        var best: DeviceRecord?
        for device in linkedDevices(side) {
            guard let current = best else {
                best = device
                continue
            }
            if compare(device, current) > 0 { best = device }
        }
        let old = defaultDevice[side]
        guard best?.index != old else { return }
        defaultDevice[side] = best?.index
        if side == .output {
            // Monitor sources rank by their sinks: the default source may follow.
            updateDefault(.input)
        }
        post(.server, .change, SubscriptionQueue.serverIndex)
        if let old, devices[side][old] != nil {
            moveStreamsToDefault(side, from: old, defaultChanged: true)
        }
    }

    /// `pa_core_set_configured_default_sink/source`: a user's choice.
    mutating func setConfiguredDefault(_ side: Side, _ name: String?) {
        guard configuredDefault[side] != name else { return }
        configuredDefault[side] = name
        post(.server, .change, SubscriptionQueue.serverIndex)
        updateDefault(side)
    }
}
