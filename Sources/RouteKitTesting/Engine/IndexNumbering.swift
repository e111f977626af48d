import DumpReader
import RouteKit

/// Keeps the indexes a dump gives where they are valid and unique, and numbers the rest after them.
struct IndexNumbering {
    private let assigned: [UInt32]
    let next: UInt32

    init(_ given: [UInt32]) {
        var seen: Set<UInt32> = []
        var kept: [UInt32?] = given.map { index in
            guard index != ServerDump.unknownIndex, seen.insert(index).inserted else { return nil }
            return index
        }
        var next = (seen.max().map { $0 + 1 }) ?? 0
        for position in kept.indices where kept[position] == nil {
            kept[position] = next
            next += 1
        }
        assigned = kept.map { $0! }
        self.next = next
    }

    func index(at position: Int) -> UInt32 { assigned[position] }
}
