/// The moves between phases that the inputs share (``RouteMachine/Phase``); the connection's
/// own moves are made where it changes.
extension RouteMachine {
    /// The switch under way is over (confirmed, failed, given up or replaced): settled. Nothing
    /// changes in any other phase.
    mutating func endSwitch() {
        if case .switching = phase { phase = .settled }
    }

    /// A device came or went, or became usable: a yield ends and the policy decides again.
    /// Nothing changes in any other phase.
    mutating func stopYielding() {
        if phase == .yielding { phase = .settled }
    }
}
