/// The hold-off (``AutomaticChoice/holdOff``): a device that appears is left out of the
/// preferences' choice until it has stayed that long, then decided on as an arrival.
extension RouteMachine {
    /// Starts the hold-off of the devices that appeared or became usable, and forgets the
    /// devices that are no longer usable (one that flaps starts over each time it is back).
    mutating func noteHoldOff(added: Set<AudioDevice.ID>, becameUsable: [AudioDevice.ID], now: ContinuousClock.Instant) {
        // Without a hold-off nothing is held: nothing to note or forget.
        guard automatic.holdOff > .zero || !holdOff.isEmpty else { return }
        holdOff.arrived(added, at: now, holdOff: automatic.holdOff)
        holdOff.arrived(becameUsable, at: now, holdOff: automatic.holdOff)
        guard !holdOff.isEmpty else { return }
        holdOff.keep(only: Set(devices.filter(RoutePolicy.isUsable).map(\.id)))
    }

    /// Whether the preferences must pass over `device` at `now`: it is within its hold-off and
    /// is neither where audio goes already (moving away from it would be a switch of its own)
    /// nor chosen by hand.
    func isHeldBack(_ device: AudioDevice.ID, now: ContinuousClock.Instant) -> Bool {
        guard holdOff.isHeld(device, now: now, holdOff: automatic.holdOff) else { return false }
        return device != current?.id && device != selection
    }

    /// Decides again once devices have stayed their hold-off, as if they had just appeared
    /// (the headset just switched on still wins over one of its kind in use).
    mutating func holdOffPassed(now: ContinuousClock.Instant) -> [RouteAction] {
        let released = holdOff.release(now: now, holdOff: automatic.holdOff)
        guard !released.isEmpty else { return [] }
        newcomers.formUnion(released)
        return decide(.deviceAppeared, now: now)
    }
}
