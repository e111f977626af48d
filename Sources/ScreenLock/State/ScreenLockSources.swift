/// One place a source's answer is kept: logind, or one screensaver service.
package enum SourceSlot: Hashable, Sendable {
    /// logind's session.
    case logind
    /// A screensaver service.
    case screenSaver(ScreenSaverService)
}

/// The latest answer of every source, and the state they make: the monitor's one piece of
/// state, changed only through ``record(_:from:)``, which says when the state changed.
package struct ScreenLockSources: Hashable, Sendable {
    /// The slots in order of preference.
    private let order: [SourceSlot]
    private var answers: [SourceSlot: SourceAnswer] = [:]
    /// The combined state of the answers now.
    package private(set) var state = ScreenLockState.unknown

    /// No answers yet, from `order`'s slots (logind, then the screensavers followed).
    package init(order: [SourceSlot]) {
        self.order = order
    }

    /// Records what `slot` says now (nil: it does not answer). Returns the new state when it
    /// differs from the one before, nil when nothing a caller can see changed.
    package mutating func record(_ answer: SourceAnswer?, from slot: SourceSlot) -> ScreenLockState? {
        answers[slot] = answer
        let combined = ScreenLockState(combining: order.compactMap { answers[$0] })
        guard combined != state else { return nil }
        state = combined
        return combined
    }
}
