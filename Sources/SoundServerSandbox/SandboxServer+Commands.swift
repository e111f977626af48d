import FoundationEssentials
import ProcessRunner
import TextSupport

extension SandboxServer {
    /// How long one `pactl` may run before it is killed (a frozen server never answers).
    static let pactlTimeLimit = Duration.seconds(10)

    /// Runs `pactl` against this server only and returns its standard output.
    ///
    /// Throws ``SandboxError`` with the exit status, standard error and the end of the server's
    /// log if `pactl` fails, or if it has not finished after 10 seconds.
    public func pactl(_ arguments: String...) async throws -> String {
        try await pactl(arguments: arguments)
    }

    /// Runs `pactl` with `arguments` against this server only and returns its standard output.
    ///
    /// Throws ``SandboxError`` with the exit status, standard error and the end of the server's
    /// log if `pactl` fails, or if it has not finished after 10 seconds.
    public func pactl(arguments: [String]) async throws -> String {
        let completion = try await runPactl(arguments, timeLimit: Self.pactlTimeLimit)
        guard completion.termination == .exited(0) else {
            let what = completion.timedOut
                ? "did not finish within \(Self.pactlTimeLimit) (is the server frozen?)"
                : "failed (\(completion.termination))"
            throw SandboxError(
                "pactl \(arguments.first ?? "") \(what)",
                command: ["pactl"] + arguments,
                exitStatus: completion.termination.exitStatus,
                standardError: completion.standardError,
                logTail: SandboxFiles.logTail(of: [kind.pulseDaemon], in: directory, count: 5)
            )
        }
        return completion.standardOutput
    }

    /// Loads `module-null-sink` with sink name `name` and the given sink properties (plus
    /// `node.always-process=true`, which gives it real volume and mute on PipeWire 1.x), and
    /// returns the module's index.
    ///
    /// Values may contain spaces; quotes, backslashes and control characters are rejected
    /// with a ``SandboxError`` (the two servers unescape them differently), as are names with
    /// spaces and keys other than letters, digits, `.`, `_` and `-`.
    public func loadNullSink(name: String, properties: [String: String] = [:]) async throws -> UInt32 {
        let arguments = try NullSinkArguments.make(name: name, properties: VirtualDeviceProperties.adding(to: properties))
        let output = try await pactl(arguments: ["load-module"] + arguments)
        let text = output.trimmingWhitespace()
        guard let index = UInt32(text) else {
            throw SandboxError("pactl load-module printed \"\(text)\", not a module index", command: ["pactl", "load-module"] + arguments)
        }
        return index
    }

    /// Adds a microphone: a source named `name` with the given source properties (plus
    /// `node.always-process=true`, as for ``loadNullSink(name:properties:)``), reading a
    /// FIFO in the sandbox that nobody writes (`module-pipe-source`: both servers offer it with
    /// properties, unlike `module-null-source`, and unlike `module-remap-source` it is no
    /// filter, which RouteKit would take for a virtual device). Returns the module's index.
    /// RouteKit pairs it with the sink whose properties give the same `device.name` (or
    /// Bluetooth address) and kind: the same properties as the sink's make a headset's microphone.
    public func loadMicrophone(name: String, properties: [String: String] = [:]) async throws -> UInt32 {
        let arguments = try NullSinkArguments.makeMicrophone(
            name: name, file: directory + "/" + name + ".fifo", properties: VirtualDeviceProperties.adding(to: properties))
        let output = try await pactl(arguments: ["load-module"] + arguments)
        let text = output.trimmingWhitespace()
        guard let index = UInt32(text) else {
            throw SandboxError("pactl load-module printed \"\(text)\", not a module index", command: ["pactl", "load-module"] + arguments)
        }
        return index
    }

    /// Unloads the module with index `index` (a null sink from ``loadNullSink(name:properties:)``
    /// disappears with it).
    public func unloadModule(_ index: UInt32) async throws {
        _ = try await pactl("unload-module", String(index))
    }

    /// Runs `pactl` with the sandbox's environment and returns however it ended.
    func runPactl(_ arguments: [String], timeLimit: Duration) async throws(SandboxError) -> ChildProcess.Completion {
        do {
            return try await ChildProcess.run([tools.pactl] + arguments, environment: processEnvironment, timeLimit: timeLimit)
        } catch {
            throw SandboxError(error)
        }
    }
}
