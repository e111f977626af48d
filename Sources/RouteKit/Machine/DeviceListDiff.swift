/// Which device of the machine's last list each device of a new list is, found without
/// hashing in the usual case.
///
/// The engine's lists keep their order between events (groups in the order they appeared), so
/// the two lists are walked side by side: a device is the one at the same place, or a few
/// places on (devices removed before it). What that walk leaves is matched by id. Hashing
/// every id into sets and dictionaries was most of a decision's time (Docs/Benchmarks.md).
///
/// A list names each device once (``DeviceModel`` builds ids from the card and port, or the
/// sink's or source's name).
struct DeviceListDiff {
    /// For each device of the new list, the index of the same device in the old one; nil for
    /// a device that was not there.
    private(set) var previous: [Int?]
    /// Indexes of the old list's devices that the new one lacks.
    private(set) var gone: [Int] = []

    /// How far ahead of its place the walk looks for a device before leaving it to the ids.
    private static let window = 4

    init(from old: [AudioDevice], to new: [AudioDevice]) {
        previous = Array(repeating: nil, count: new.count)
        var next = 0
        var unmatched: [Int] = []
        for (index, device) in new.enumerated() {
            let end = min(next + Self.window, old.count)
            if let found = old[next..<end].firstIndex(where: { $0.id == device.id }) {
                previous[index] = found
                gone += next..<found
                next = found + 1
            } else {
                unmatched.append(index)
            }
        }
        gone += next..<old.count
        guard !unmatched.isEmpty, !gone.isEmpty else { return }
        // Moved further than the window, or reordered: matched by id.
        var byID: [AudioDevice.ID: Int] = [:]
        for index in gone where byID[old[index].id] == nil { byID[old[index].id] = index }
        for index in unmatched {
            guard let found = byID.removeValue(forKey: new[index].id) else { continue }
            previous[index] = found
            gone.removeAll { $0 == found }
        }
    }
}
