/// Cuts a byte stream into ``InputEvent`` records. An evdev device hands over whole records,
/// but a pipe or a file can split one across reads: the parser keeps the part of a record
/// that a read ended in until the next read completes it. Pure: no reading of its own.
public struct InputEventParser: Hashable, Sendable {
    /// The start of a record not yet complete.
    private var partial: [UInt8] = []

    /// A parser with nothing pending.
    public init() {}

    /// How many bytes of an incomplete record are pending: not 0 at the end of the input
    /// means the input ended inside a record.
    public var pendingByteCount: Int { partial.count }

    /// The records that `bytes` completes, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [InputEvent] {
        partial.append(contentsOf: bytes)
        let whole = partial.count / InputEvent.size
        guard whole > 0 else { return [] }
        let events = partial.withUnsafeBytes { buffer in
            (0..<whole).map { index in
                InputEvent(record: UnsafeRawBufferPointer(rebasing: buffer[(index * InputEvent.size)..<((index + 1) * InputEvent.size)]))
            }
        }
        partial.removeFirst(whole * InputEvent.size)
        return events
    }
}
