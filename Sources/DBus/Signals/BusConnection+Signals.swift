extension BusConnection {
    /// The signals that match `rule` (a D-Bus match rule, such as
    /// `type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'`),
    /// from the moment the bus has installed it, which has happened when this returns. The
    /// stream ends when the connection ends; ending its iteration removes the match.
    ///
    /// `filter` is checked on each signal's header before its arguments are read; a signal it
    /// refuses, or one over ``BusReadLimits/signals``, is dropped unread.
    public func signals(matching rule: String, filter: SignalFilter = .any) async throws -> AsyncStream<BusSignalMessage> {
        let (signals, continuation) = AsyncStream.makeStream(of: BusSignalMessage.self, bufferingPolicy: .bufferingNewest(1_024))
        let match = MatchCore(rule: rule, filter: filter, signals: continuation)
        let ids = MatchIdentity()
        continuation.onTermination = { [loop] _ in
            loop.enqueue { loop in
                if let id = ids.take() { loop.removeMatch(id) }
            }
        }
        let queued = loop.enqueue { loop in
            if let id = loop.addMatch(match) { ids.set(id) }
        }
        if !queued { match.finish() }
        _ = try await match.installed.value()
        return signals
    }
}
