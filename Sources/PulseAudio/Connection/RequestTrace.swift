import Glibc
import Synchronization

/// A debugging trace of every request a connection sends, for measuring how often each
/// object is read (`scripts/reliability/storm`): with `ROUTEKIT_PULSE_TRACE=FILE` in the
/// environment, each request appends one line to FILE, `CONNECTION LABEL`, such as
/// `routectl#2 get sink #14`. Off (one load of a static) when the variable is unset.
///
/// Each line is one `write(2)` to a descriptor opened with `O_APPEND`, so lines from several
/// connections or processes never interleave; a write that fails is dropped.
enum RequestTrace {
    /// The trace file's descriptor, or -1 when tracing is off.
    private static let descriptor: Int32 = {
        guard let path = getenv("ROUTEKIT_PULSE_TRACE"), path.pointee != 0 else { return -1 }
        return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }()

    /// Numbers the connections in the trace, from 1.
    private static let connections = Atomic<Int>(0)

    /// Whether requests are traced.
    static var isOn: Bool { descriptor >= 0 }

    /// A name for a new connection of `applicationName`'s in the trace.
    static func connectionName(applicationName: String) -> String {
        guard isOn else { return "" }
        let number = connections.add(1, ordering: .relaxed).newValue
        return "\(applicationName.filter { $0 != " " && $0 != "\n" })#\(number)"
    }

    /// Records that `connection` sends the request `label`.
    static func record(connection: String, label: String) {
        guard isOn else { return }
        let line = Array("\(connection) \(label.filter { $0 != "\n" })\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
