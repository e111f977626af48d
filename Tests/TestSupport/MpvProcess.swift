import ConcurrencySupport
import Foundation
import Glibc
import ProcessRunner
import SoundServerSandbox

/// mpv playing a 440 Hz tone to the sandbox's server, with the system's mpv-mpris script,
/// on the private bus; its messages (warnings and errors) kept for a failure's message.
public final class Mpv: Sendable {
    /// Its process id: its stream's `application.process.id` and its MPRIS name's owner's.
    public let processID: UInt32
    private let process: ChildProcess
    private let output: OutputLines
    /// Ends when mpv's output does, that is when mpv has ended; awaiting it can be cancelled.
    private let ended: AsyncStream<Never>

    private init(process: ChildProcess, output: OutputLines, ended: AsyncStream<Never>) {
        self.processID = UInt32(process.pid)
        self.process = process
        self.output = output
        self.ended = ended
    }

    /// Starts mpv on `bus`, playing to `server` (on `device`, a sink name, or the default).
    public static func start(on bus: PrivateSessionBus, server: SandboxServer, device: String? = nil) async throws -> Mpv {
        let command = ["/usr/bin/mpv", "--no-video", "--no-input-terminal", "--msg-level=all=warn", "--ao=pulse"]
            + (device.map { ["--audio-device=pulse/\($0)"] } ?? []) + ["av://lavfi:sine=frequency=440"]
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let output = OutputLines()
        let (ended, end) = AsyncStream.makeStream(of: Never.self)
        let process = try await ChildProcess.launch(
            setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + command } ?? command,
            // The test's bus wins: a PipeWire sandbox has a session bus of its own for WirePlumber.
            environment: server.environment.merging(bus.environment) { $1 },
            output: .lines(onLine: { _, line in output.append(line) }, onEnd: { end.finish() }))
        return Mpv(process: process, output: output, ended: ended)
    }

    /// Runs `body`, failing with mpv's messages if mpv ends first.
    public func failingIfItEnds<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await body() }
            group.addTask {
                for await _ in self.ended {}
                try Task.checkCancellation()
                let ending = await self.process.completion(within: .seconds(5))
                throw MpvEnded(message: "mpv ended (\(String(describing: ending))): \(self.output.text)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// How it ended, once it has (within 15 seconds).
    package func completion() async -> Termination? {
        await process.completion(within: .seconds(15))
    }

    deinit { process.signal(SIGKILL) }
}

/// mpv (or playerctl) ended or failed where it should not have; the message has its output.
public struct MpvEnded: Error, CustomStringConvertible {
    /// What happened, with the output.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// playerctl's output, trimmed, run against the private bus.
public func playerctl(_ arguments: [String], bus: PrivateSessionBus) async throws -> String {
    let completion = try await ChildProcess.run(["/usr/bin/playerctl"] + arguments, environment: bus.environment,
                                                timeLimit: .seconds(15))
    guard completion.termination == .exited(0) else {
        throw MpvEnded(message: "playerctl \(arguments) failed (\(completion.termination)): \(completion.standardError)")
    }
    return completion.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The lines a child has printed, for its failure message.
public final class OutputLines: Sendable {
    private let lines = LockedValue<[String]>([])
    /// No lines yet.
    public init() {}
    /// Keeps `line`.
    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    /// Every line so far.
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
