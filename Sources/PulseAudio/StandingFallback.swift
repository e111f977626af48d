/// A default sink to set the moment one sink is removed, decided ahead of the removal.
///
/// RouteKit's engine names, after each decision, the fallback it would take if the route's
/// sink went now, and arms a ``FallbackConnection`` with it: the connection sends the
/// `set-default-sink` from the callback that reads the removal, before anyone has looked at
/// anything. The engine's own decision on the removal comes later and asks for the same
/// fallback, which changes nothing by then.
public struct StandingFallback: Hashable, Sendable {
    /// The sink whose removal fires the order, by index (PulseAudio numbers each new sink
    /// anew while it runs; a reconnection disarms the order, since a restarted server
    /// numbers them again).
    public var sinkIndex: UInt32
    /// The sink to make the default.
    public var fallbackSink: String

    /// When the sink at `sinkIndex` is removed, make `fallbackSink` the default.
    public init(sinkIndex: UInt32, fallbackSink: String) {
        self.sinkIndex = sinkIndex
        self.fallbackSink = fallbackSink
    }
}
