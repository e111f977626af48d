/// Why a dump could not be read, and where.
public struct DumpParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the input the problem is on.
    public var line: Int
    /// What was wrong.
    public var message: String

    /// An error on `line`.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// For example `line 12: Sink #3 has no name`.
    public var description: String { "line \(line): \(message)" }
}
