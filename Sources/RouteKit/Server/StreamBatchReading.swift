import PulseAudio

/// How a follower of the server reads the streams that a burst of events announced: each by
/// its index when they are few, side by side, and as one list when they are many, so that
/// a route switch moving fifty streams (each announced as changed, twice on PipeWire) costs
/// the server one request for them rather than one for each.
///
/// A stream the list does not hold is gone; the caller treats it as removed.
package enum StreamBatchReading {
    /// From this many streams on, one list answers for all of them: a list of a few more
    /// streams than asked costs the server less than this many lookups.
    package static let listFrom = 4

    /// The streams `indices` names, each with its reading (nil: gone), in the order asked:
    /// read by `lookup` when fewer than ``listFrom``, side by side, else by one `list`.
    /// Throws what a request throws (the connection went).
    package static func read<Info: Sendable>(
        _ indices: [UInt32], index: (Info) -> UInt32,
        lookup: @escaping @Sendable (UInt32) async throws -> Info?,
        list: () async throws -> [Info]
    ) async throws -> [(index: UInt32, stream: Info?)] {
        if indices.count >= listFrom {
            let listed = Dictionary(try await list().map { (index($0), $0) }) { first, _ in first }
            return indices.map { ($0, listed[$0]) }
        }
        return try await withThrowingTaskGroup(of: (UInt32, Info?).self) { lookups in
            for asked in indices {
                lookups.addTask { (asked, try await lookup(asked)) }
            }
            var found: [UInt32: Info?] = [:]
            for try await (asked, stream) in lookups { found[asked] = stream }
            return indices.map { ($0, found[$0] ?? nil) }
        }
    }
}
