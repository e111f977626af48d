import SoundServerSandbox

/// What runs beside the server while a headset is unplugged mid-stream: nothing, or RouteKit.
protocol LeakSwitcher: AnyObject {
    /// The name in the results.
    var name: String { get }
    /// Runs `round` with the switcher started on `rig`'s server (acting on what happens), and
    /// stops it once the round is over, whatever its outcome.
    func running(_ rig: LeakRig, _ round: () async throws -> LeakRound) async throws -> LeakRound
    /// When it said it held the stream (muted it), for the round that unplugged at `instant`.
    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant?
    /// Starts what plays the tone in this round (`name`: its application name); returns once
    /// it plays, as far as the switcher can tell.
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone
}

extension LeakSwitcher {
    /// `pacat` playing the raw tone: a stream with no player to pause.
    func play(_ rig: LeakRig, name: String) async throws -> any LeakTone {
        try await rig.pacatTone(name: name)
    }
}

extension LeakRig {
    /// `pacat` playing the raw tone as `name`: a stream with no player to pause.
    func pacatTone(name: String) async throws -> ToneStream {
        try await ToneStream(server: server, file: toneFile, latency: options.streamLatency, name: name)
    }
}

/// No switcher: the server (PulseAudio's own fallback, WirePlumber) moves the stream to the
/// loudspeaker and it plays on there, as users hear it today.
final class NoSwitcher: LeakSwitcher {
    let name = "nothing (the server alone)"
    func running(_ rig: LeakRig, _ round: () async throws -> LeakRound) async throws -> LeakRound { try await round() }
    func heldInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? { nil }
}
