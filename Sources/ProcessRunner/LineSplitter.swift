import Subprocess

/// Cuts a child's output into lines at `\n` (and only there), stamping each chunk with the
/// moment it was read, as it comes: one read of a pipe can end in the middle of a line.
struct LineSplitter {
    private var pending: [UInt8] = []

    /// The complete lines in `bytes` after what came before, without their `\n`.
    mutating func lines(in bytes: some Sequence<UInt8>) -> [String] {
        pending.append(contentsOf: bytes)
        var lines: [String] = []
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
            start = newline + 1
        }
        pending.removeSubrange(..<start)
        return lines
    }

    /// What is left after the last `\n`, once the output has ended; nil if nothing is.
    mutating func rest() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }

    /// Reads `output` to its end, handing each line to `handler`, the unterminated rest too,
    /// then tells it that the output has ended. A failed read ends the output.
    static func read(_ output: SubprocessOutputSequence, into handler: LineHandler) async {
        var splitter = LineSplitter()
        do {
            for try await buffer in output {
                let now = ContinuousClock.now
                let bytes = buffer.withUnsafeBytes { Array($0) }
                for line in splitter.lines(in: bytes) { handler.onLine(now, line) }
            }
        } catch {
            // The pipe failed or was cut short: what came is all there is.
        }
        if let rest = splitter.rest() { handler.onLine(.now, rest) }
        handler.onEnd()
    }
}
