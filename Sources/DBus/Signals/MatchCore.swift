/// What sd-bus's match callbacks reach a subscription through: the stream its signals go to,
/// and the install answer it waits for. Retained for sd-bus until the match's slot is destroyed.
final class MatchCore: Sendable {
    let rule: String
    let installed: PendingCall
    /// What is read of each signal, checked before its arguments are.
    let filter: SignalFilter
    private let signals: AsyncStream<BusSignalMessage>.Continuation

    init(rule: String, filter: SignalFilter, signals: AsyncStream<BusSignalMessage>.Continuation) {
        self.rule = rule
        self.filter = filter
        self.installed = PendingCall(label: "AddMatch(\(rule))")
        self.signals = signals
    }

    /// A signal that matched.
    func deliver(_ signal: BusSignalMessage) {
        signals.yield(signal)
    }

    /// The match is gone: removed, or with the connection.
    func finish() {
        installed.resolve(.failure(BusError.disconnected("the match \(rule) ended before the bus installed it")))
        signals.finish()
    }
}
