/// The devices that appeared lately and are held back from the preferences until they have
/// stayed ``AutomaticChoice/holdOff``: a pure record the route machine keeps, so that a
/// device that comes and goes cannot move the route faster than it settles, while the route
/// still ends on the policy's answer for the devices that stay.
struct ArrivalHoldOff: Sendable, Equatable {
    /// When each held device arrived.
    private(set) var arrivals: [AudioDevice.ID: ContinuousClock.Instant] = [:]

    /// Notes that `devices` appeared (or became usable) at `now`; nothing when `holdOff` is zero.
    mutating func arrived(_ devices: some Sequence<AudioDevice.ID>, at now: ContinuousClock.Instant, holdOff: Duration) {
        guard holdOff > .zero else { return }
        for device in devices { arrivals[device] = now }
    }

    /// Forgets the devices that are not in `usable`: one that goes and comes back starts over.
    mutating func keep(only usable: Set<AudioDevice.ID>) {
        arrivals = arrivals.filter { usable.contains($0.key) }
    }

    /// Whether no device is held.
    var isEmpty: Bool { arrivals.isEmpty }

    /// Whether `device` is still held back at `now`.
    func isHeld(_ device: AudioDevice.ID, now: ContinuousClock.Instant, holdOff: Duration) -> Bool {
        arrivals[device].map { now - $0 < holdOff } ?? false
    }

    /// When the first held device is due to be let go.
    func nextRelease(holdOff: Duration) -> ContinuousClock.Instant? {
        arrivals.values.min().map { $0 + holdOff }
    }

    /// Lets go of the devices whose hold-off has passed at `now` and returns them.
    mutating func release(now: ContinuousClock.Instant, holdOff: Duration) -> Set<AudioDevice.ID> {
        let due = Set(arrivals.filter { now - $0.value >= holdOff }.keys)
        for device in due { arrivals.removeValue(forKey: device) }
        return due
    }
}
