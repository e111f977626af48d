import PulseAudio

/// What volume-button capture asks its driver to do.
enum VolumeCaptureAction: Hashable, Sendable {
    /// Set the volume of `sink`; then tell the machine ``VolumeCaptureMachine/applied(_:)``.
    case setVolume(sink: String, ChannelVolumes)
    /// Mute or unmute `sink`; then tell the machine ``VolumeCaptureMachine/applied(_:)``.
    case setMute(sink: String, Bool)
    /// Report to the user.
    case report(VolumeCaptureEvent)

    /// The sink a request changes; nil for a report.
    var sink: String? {
        switch self {
        case .setVolume(let sink, _), .setMute(let sink, _): sink
        case .report: nil
        }
    }
}

/// Every decision of volume-button capture, as a value: observe-and-restore on the default
/// sink. While capture is on, the default sink is held at a level; a change the server shows
/// is a press (its direction from the loudest channel, ``VolumeButton/mute`` when the mute
/// flag flips), and the held level is asked for again.
///
/// The echo of a restore is told from a press by its value, never by timing: a reading at
/// the held level is not a press, and once the driver reports a request answered
/// (``applied(_:)``), the level it set is what the next reading is compared with. A reading
/// that moved several steps at once is several presses (see ``VolumeCaptureConfiguration``).
///
/// Inputs: ``start(_:)``, ``stop()``, ``observe(_:)`` (the default sink as read after an
/// event, nil when there is none; another name means the default moved) and ``applied(_:)``.
/// Outputs: ``VolumeCaptureAction``s, in the order to perform them.
struct VolumeCaptureMachine: Sendable {
    /// The sink capture holds.
    struct Hold: Hashable, Sendable {
        /// Its name.
        var sink: String
        /// The user's level when capture took it: put back when capture lets go.
        var original: SinkLevel
        /// The level capture keeps it at.
        var held: SinkLevel
        /// The level the server shows as far as the machine knows: the last reading, or
        /// what an answered request set since.
        var seen: SinkLevel
    }

    /// Off, on without a default sink, or holding one.
    enum State: Hashable, Sendable {
        case idle
        case waitingForSink
        case holding(Hold)
    }

    let configuration: VolumeCaptureConfiguration
    private(set) var state = State.idle

    /// A machine with these figures, capture off.
    init(configuration: VolumeCaptureConfiguration = VolumeCaptureConfiguration()) {
        self.configuration = configuration
    }

    /// Whether capture is on (holding a sink or waiting for one).
    var isCapturing: Bool { state != .idle }

    /// The sink held, if any.
    var hold: Hold? {
        if case .holding(let hold) = state { return hold }
        return nil
    }

    /// Capture on, with `reading` the default sink now. Nothing when it is on already.
    mutating func start(_ reading: DefaultSinkReading?) -> [VolumeCaptureAction] {
        guard state == .idle else { return [] }
        guard let reading else {
            state = .waitingForSink
            return [.report(.waitingForSink)]
        }
        return take(reading)
    }

    /// Capture off: the user's level is put back. Nothing when it is off already.
    mutating func stop() -> [VolumeCaptureAction] {
        defer { state = .idle }
        guard let hold else { return [] }
        return release(hold)
    }

    /// The default sink as the server shows it now (nil: there is none).
    mutating func observe(_ reading: DefaultSinkReading?) -> [VolumeCaptureAction] {
        switch state {
        case .idle:
            return []
        case .waitingForSink:
            return reading.map { take($0) } ?? []
        case .holding(let hold):
            guard let reading else {
                state = .waitingForSink
                return release(hold) + [.report(.waitingForSink)]
            }
            guard reading.sink == hold.sink else { return release(hold) + take(reading) }
            return follow(hold, to: reading.level)
        }
    }

    /// The server answered `action`: what it set is what the sink now shows.
    mutating func applied(_ action: VolumeCaptureAction) {
        guard case .holding(var hold) = state else { return }
        switch action {
        case .setVolume(let sink, let volume) where sink == hold.sink: hold.seen.volume = volume
        case .setMute(let sink, let muted) where sink == hold.sink: hold.seen.isMuted = muted
        default: return
        }
        state = .holding(hold)
    }

    /// Starts holding the sink of `reading`.
    private mutating func take(_ reading: DefaultSinkReading) -> [VolumeCaptureAction] {
        let original = reading.level
        let held = SinkLevel(volume: configuration.held(original.volume), isMuted: original.isMuted)
        state = .holding(Hold(sink: reading.sink, original: original, held: held, seen: original))
        var actions: [VolumeCaptureAction] = []
        if held.volume != original.volume { actions.append(.setVolume(sink: reading.sink, held.volume)) }
        actions.append(.report(.capturing(sink: reading.sink, original: original, held: held)))
        return actions
    }

    /// Puts the user's level back on `hold`'s sink, exactly (it may be gone: then the
    /// requests fail and nothing is lost).
    private func release(_ hold: Hold) -> [VolumeCaptureAction] {
        var actions: [VolumeCaptureAction] = []
        if hold.seen.volume != hold.original.volume || hold.held.volume != hold.original.volume {
            actions.append(.setVolume(sink: hold.sink, hold.original.volume))
        }
        if hold.seen.isMuted != hold.original.isMuted {
            actions.append(.setMute(sink: hold.sink, hold.original.isMuted))
        }
        actions.append(.report(.released(sink: hold.sink, restored: hold.original)))
        return actions
    }

    /// A reading of the held sink: the presses it shows, and the held level asked for again.
    private mutating func follow(_ hold: Hold, to level: SinkLevel) -> [VolumeCaptureAction] {
        var hold = hold
        var presses: [VolumeButton] = []
        // At the held level: an echo of a restore (or nothing); else a change since the
        // last reading is the user's.
        if !configuration.same(level.volume, hold.held.volume), !configuration.same(level.volume, hold.seen.volume),
           let (button, count) = configuration.presses(from: hold.seen.volume, to: level.volume) {
            presses += Array(repeating: button, count: count)
        }
        if level.isMuted != hold.seen.isMuted, level.isMuted != hold.held.isMuted {
            // Desktops unmute when a key raises the volume: that is the raise alone.
            let unmutedByRaise = !level.isMuted && presses.first == .up
            if !unmutedByRaise { presses.append(.mute) }
        }
        hold.seen = level
        state = .holding(hold)
        var actions = presses.map { VolumeCaptureAction.report(.pressed($0, sink: hold.sink)) }
        if !configuration.same(level.volume, hold.held.volume) {
            actions.append(.setVolume(sink: hold.sink, hold.held.volume))
        }
        if level.isMuted != hold.held.isMuted {
            actions.append(.setMute(sink: hold.sink, hold.held.isMuted))
        }
        return actions
    }
}
