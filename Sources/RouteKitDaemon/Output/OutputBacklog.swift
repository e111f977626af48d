/// The lines `routectl daemon` has to write and its writer has not written yet, bounded:
/// a line that does not fit is dropped and counted, never waited for, and where lines were
/// dropped the writer writes `output: N lines dropped` once it can write again. A pure value:
/// ``LineWriter`` holds it under its lock and does the writing.
package struct OutputBacklog: Sendable {
    /// One thing to write.
    package enum Entry: Equatable, Sendable {
        /// A line, without its newline.
        case line(String)
        /// The count of lines dropped at this point.
        case dropped(Int)

        /// The text written for it, newline included.
        var text: String {
            switch self {
            case .line(let line): line + "\n"
            case .dropped(let count): "output: \(count) line\(count == 1 ? "" : "s") dropped\n"
            }
        }
    }

    /// The most bytes of lines waiting; a line that would pass it is dropped.
    package let capacity: Int
    private(set) var entries: [Entry] = []
    private var head = 0
    private(set) var bytes = 0
    /// Lines dropped since the last `dropped` entry.
    private(set) var dropped = 0
    /// Every line dropped since the start, for tests and the figures.
    private(set) var droppedTotal = 0
    /// Whether the last write worked: a count of dropped lines alone waits for one that does.
    private(set) var isWritable = true

    /// A backlog of at most `capacity` bytes.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether nothing waits to be written (but a count of dropped lines while writing fails).
    package var isEmpty: Bool { head == entries.count && (dropped == 0 || !isWritable) }

    /// Keeps `line` to write, or drops and counts it when the backlog is full; returns
    /// whether it was kept.
    package mutating func offer(_ line: String) -> Bool {
        let size = line.utf8.count + 1
        guard bytes + size <= capacity else {
            drop()
            return false
        }
        if dropped > 0 {
            entries.append(.dropped(dropped))
            dropped = 0
        }
        entries.append(.line(line))
        bytes += size
        return true
    }

    /// Counts a line dropped: one that did not fit, or that the writer could not write.
    package mutating func drop() {
        dropped += 1
        droppedTotal += 1
    }

    /// Says how writing `entry` (from ``take()``) went: a line that could not be written is
    /// dropped and counted, and so are the lines a count that could not be written stood for.
    package mutating func wrote(_ entry: Entry, successfully: Bool) {
        isWritable = successfully
        guard !successfully else { return }
        switch entry {
        case .line: drop()
        case .dropped(let count): dropped += count
        }
    }

    /// The next thing to write, oldest first; the count of dropped lines when only that is
    /// left and the last write worked.
    package mutating func take() -> Entry? {
        if head < entries.count {
            let entry = entries[head]
            head += 1
            if case .line(let line) = entry { bytes -= line.utf8.count + 1 }
            if head == entries.count || head >= 1024 {
                entries.removeFirst(head)
                head = 0
            }
            return entry
        }
        guard dropped > 0, isWritable else { return nil }
        defer { dropped = 0 }
        return .dropped(dropped)
    }
}
