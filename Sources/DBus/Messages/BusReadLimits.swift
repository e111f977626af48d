/// How much of one incoming message is turned into ``BusValue``s: the caps every message is
/// read under (method calls, signals, replies), checked before anything is built.
///
/// sd-bus gives each string's and each fixed-size array's length before anything is copied,
/// so a string or an array of numbers over a cap costs nothing: the message is refused whole.
/// Every value built is charged ``costPerValue`` bytes (an indirect enum box and its payload)
/// plus its string's bytes against ``maximumDecodedBytes``; an array of strings or records is
/// refused at the element that would pass it. Listed in Docs/DBus.md ("Bounds on input").
public struct BusReadLimits: Hashable, Sendable {
    /// The longest string, object path or signature read, in bytes.
    public var maximumStringBytes: Int
    /// What the values built from one message may cost, in bytes, as charged above.
    public var maximumDecodedBytes: Int

    /// Limits from their parts.
    public init(maximumStringBytes: Int, maximumDecodedBytes: Int) {
        self.maximumStringBytes = maximumStringBytes
        self.maximumDecodedBytes = maximumDecodedBytes
    }

    /// What one value is charged, besides its string: about what an indirect enum case takes
    /// on the heap with its payload.
    public static let costPerValue = 64

    /// Calls to an exported object's methods: arguments of up to 64 KiB a string and 1 MiB in all.
    public static let methodCalls = BusReadLimits(maximumStringBytes: 64 << 10, maximumDecodedBytes: 1 << 20)
    /// Signals a subscription receives: the same as method calls. A signal over them is dropped.
    public static let signals = BusReadLimits(maximumStringBytes: 64 << 10, maximumDecodedBytes: 1 << 20)
    /// Replies to this connection's own calls (which may come from any peer): up to 1 MiB a
    /// string and 4 MiB in all, room for a list of several hundred devices.
    public static let replies = BusReadLimits(maximumStringBytes: 1 << 20, maximumDecodedBytes: 4 << 20)
}
