/// Someone else taking the default away: counted toward ``Configuration/overrideLimit``, and
/// told apart from the session manager choosing again (WirePlumber back after a crash, or
/// falling back while devices come and go), which is no rival.
extension RouteMachine {
    /// What a switch whose confirmation did not come in time met at its deadline.
    enum MissedConfirmation: Equatable {
        /// The server shows no default at all: nobody applies one (the session manager is
        /// gone, or choosing again). Not a rival; the device waits for a default to appear.
        case noDefault
        /// Devices came or went while the switch waited: the default is the server's fallback.
        /// Not a rival; the route is decided again at once.
        case serverChoosing
        /// Another default stands on a device that was there all along: someone's answer
        /// crossed ours, or the server is slow. Counted toward the override limit, and taken
        /// back below it.
        case otherDefault(AudioDevice)
        /// The server shows the device itself as the default (only its input or port missed).
        case incomplete
    }

    /// What the switch to `device` met at its deadline, from what the server shows now.
    func missedConfirmation(of device: AudioDevice.ID, now: ContinuousClock.Instant) -> MissedConfirmation {
        guard defaultSink != nil else { return .noDefault }
        if let churned = lastDeviceChurn, now - churned <= configuration.confirmationTimeout { return .serverChoosing }
        guard let current, current.id != device else { return .incomplete }
        return .otherDefault(current)
    }

    /// Counts one override at `now`, forgetting those older than ``Configuration/overrideWindow``;
    /// returns the number counted within the window.
    mutating func countOverride(now: ContinuousClock.Instant) -> Int {
        overrides = overrides.filter { now - $0 < configuration.overrideWindow } + [now]
        return overrides.count
    }

    /// Starts yielding to `device` when `count` overrides reached the limit: the `yielded`
    /// event, once. Returns nothing below the limit or when yielding already.
    mutating func yieldIfOverLimit(to device: AudioDevice?, count: Int) -> [RouteAction] {
        guard count >= configuration.overrideLimit, phase == .settled else { return [] }
        phase = .yielding
        return [.emit(.yielded(to: device, overrides: count))]
    }

    /// After a switch that met `missed` at its deadline: what the machine does beyond
    /// reporting the failure. Returns whether the device is to wait (set aside as unconfirmed)
    /// and the actions (a `yielded` event).
    ///
    /// Only a default on another device that was there all along counts toward the limit, and
    /// only the limit yields: below it the same switch is asked again (a rival's answer that
    /// crossed ours, or a slow server; never a fall to another device, so audio does not
    /// bounce), and at the limit the device waits for a change.
    mutating func answerMissedConfirmation(_ missed: MissedConfirmation, now: ContinuousClock.Instant)
        -> (waits: Bool, actions: [RouteAction]) {
        switch missed {
        case .noDefault, .incomplete:
            return (true, [])
        case .serverChoosing:
            return (false, [])
        case .otherDefault(let other):
            guard configuration.isSystemScope, !isYielding else { return (true, []) }
            let count = countOverride(now: now)
            let yielded = yieldIfOverLimit(to: other, count: count)
            return (!yielded.isEmpty, yielded)
        }
    }
}
