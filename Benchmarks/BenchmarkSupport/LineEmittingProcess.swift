import Foundation

/// A child process whose standard output (and standard error) is read line by line on a
/// thread of its own, each line handed on with the moment it was read: a script that
/// reports what it did, a helper that says when it is ready.
///
/// Foundation starts each child as the leader of a process group of its own; with
/// `wholeGroup`, ``stop()`` signals that group, so that everything the process started (a
/// shell pipeline) ends with it, by the group's id and nothing else.
public final class LineEmittingProcess: Sendable {
    private let process: Process
    private let input: Pipe
    /// Whether ``stop()`` signals the process group (asked for, and the child leads one).
    private let leadsGroup: Bool

    /// The process id.
    public var processID: Int32 { process.processIdentifier }

    /// Starts `executable` with `arguments` and exactly `environment` (nothing inherited);
    /// `onLine` is called on the reader thread for every line, in order, then `onEnd` once
    /// the output ends. Standard input stays open until ``stop()``.
    public init(executable: String, arguments: [String], environment: [String: String],
                wholeGroup: Bool = false,
                onLine: @escaping @Sendable (ContinuousClock.Instant, String) -> Void,
                onEnd: @escaping @Sendable () -> Void = {}) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        let descriptor = output.fileHandleForReading.fileDescriptor
        let reader = Thread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(now, String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            onEnd()
        }
        try process.run()
        reader.start()
        self.process = process
        self.input = input
        let pid = process.processIdentifier
        leadsGroup = wholeGroup && getpgid(pid) == pid
    }

    /// Ends the process (with `wholeGroup`, its whole process group): closes its standard
    /// input, sends `SIGTERM`, then `SIGKILL` after a second, and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let target = leadsGroup ? -pid : pid
        if leadsGroup || process.isRunning { kill(target, SIGTERM) }
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(target, SIGKILL) }
        process.waitUntilExit()
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }
}
