import Foundation
import Glibc
import Synchronization

/// Reads the user's configured defaults from PipeWire's `default` metadata, with
/// `pw-metadata -n default 0`: the keys `default.configured.audio.sink` and
/// `default.configured.audio.source`, whose values are SPA JSON objects such as
/// `{ "name": "usb_headset" }`. A missing key means that nothing is configured (nil).
///
/// Give it to ``AudioDeviceManager`` on PipeWire so that ``AudioDeviceManager/stop()`` puts
/// back exactly the configured default the user had, or none:
///
/// ```swift
/// let manager = AudioDeviceManager(server: client, configuredDefaults: PipeWireConfiguredDefaults())
/// ```
///
/// Each read runs `pw-metadata` once, with ``environment`` (so that it reaches the same
/// PipeWire as the PulseAudio client) and kills it if it has not finished within ``timeout``.
/// Failures are ``Failure`` values that say what went wrong.
public struct PipeWireConfiguredDefaults: ConfiguredDefaultsReader {
    /// The metadata key of the configured default sink.
    public static let sinkKey = "default.configured.audio.sink"
    /// The metadata key of the configured default source.
    public static let sourceKey = "default.configured.audio.source"

    /// The complete environment `pw-metadata` runs with; nil runs it with this process's.
    /// `PIPEWIRE_RUNTIME_DIR`, `XDG_RUNTIME_DIR` and `PIPEWIRE_REMOTE` choose the PipeWire
    /// it reaches.
    public var environment: [String: String]?
    /// How long `pw-metadata` may run before it is killed and the read fails with
    /// ``Failure/timedOut(after:)`` (a frozen PipeWire never answers).
    public var timeout: Duration
    /// The program to run: a path with a `/`, or a name looked up in the `PATH` of
    /// ``environment`` (of this process when it has none).
    public var executable: String

    /// A reader.
    ///
    /// - Parameters:
    ///   - environment: the environment to run `pw-metadata` with, whole; nil (the default)
    ///     inherits this process's. A sandboxed server's environment (its runtime directory)
    ///     makes it read that server's metadata.
    ///   - timeout: how long `pw-metadata` may run before it is killed.
    ///   - executable: `pw-metadata`, or the path of a program that behaves like it.
    public init(environment: [String: String]? = nil, timeout: Duration = .seconds(5),
                executable: String = "pw-metadata") {
        self.environment = environment
        self.timeout = timeout
        self.executable = executable
    }

    /// Runs `pw-metadata -n default 0` and returns the configured defaults it shows. Throws
    /// ``Failure`` when the program is missing, fails, outlives ``timeout``, or prints what
    /// cannot be read; `CancellationError` (after killing it) when the task is cancelled.
    public func configuredDefaults() async throws -> ConfiguredDefaults {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let path = try Self.locate(executable, in: environment)
        let run: MetadataProcess.Completion
        do {
            run = try await MetadataProcess.run([path, "-n", "default", "0"], environment: environment, timeout: timeout)
        } catch {
            try Task.checkCancellation()
            throw error
        }
        try Task.checkCancellation()
        if run.timedOut { throw Failure.timedOut(after: timeout) }
        switch run.termination {
        case .exited(0): break
        case .exited(let status): throw Failure.failed(status: status, standardError: run.standardError)
        case .signaled(let signal): throw Failure.killed(signal: signal, standardError: run.standardError)
        case .unknown:
            throw Failure.failed(status: -1, standardError: "its exit status was lost (something else reaped it)\n" + run.standardError)
        }
        return try Self.parse(run.standardOutput)
    }

    /// Writes `default.configured.audio.sink` (`output`) or `.source` with
    /// `pw-metadata -n default 0 KEY '{ "name": "NAME" }' Spa:String:JSON`, or removes it
    /// (`-d`) for nil. WirePlumber keeps a configured default whose device is absent, and
    /// pipewire-pulse refuses to set one: this is how such a choice is put back.
    public func configure(_ name: String?, output: Bool) async throws {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let path = try Self.locate(executable, in: environment)
        let key = output ? Self.sinkKey : Self.sourceKey
        let arguments = name.map { ["-n", "default", "0", key, "{ \"name\": \"\(Self.jsonEscaped($0))\" }", "Spa:String:JSON"] }
            ?? ["-d", "-n", "default", "0", key]
        let run = try await MetadataProcess.run([path] + arguments, environment: environment, timeout: timeout)
        try Task.checkCancellation()
        if run.timedOut { throw Failure.timedOut(after: timeout) }
        switch run.termination {
        case .exited(0): return
        case .exited(let status): throw Failure.failed(status: status, standardError: run.standardError)
        case .signaled(let signal): throw Failure.killed(signal: signal, standardError: run.standardError)
        case .unknown: throw Failure.failed(status: -1, standardError: run.standardError)
        }
    }

    /// `name` as the inside of a JSON string.
    static func jsonEscaped(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Parsing

    /// The configured defaults in `pw-metadata -n default 0`'s output: a line
    /// `Found "default" metadata <id>`, then one line per key of subject 0, as
    /// `update: id:0 key:'<key>' value:'<value>' type:'<type>'` (PipeWire 0.3's format, which
    /// prints values as they are, unescaped). Keys other than the two configured defaults,
    /// and other subjects, are ignored.
    ///
    /// Throws ``Failure/noMetadata`` for empty output (PipeWire has no `default` metadata: no
    /// session manager runs), and ``Failure/unparseable(line:reason:)`` for output that is not
    /// `pw-metadata`'s, an `update` line out of shape, or a configured default's value that
    /// ``deviceName(fromJSON:)`` cannot read.
    public static func parse(_ output: String) throws(Failure) -> ConfiguredDefaults {
        var defaults = ConfiguredDefaults(sink: nil, source: nil)
        var found = false
        for rawLine in output.split(whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.hasPrefix("Found \"") {
                found = true
            } else if line.hasPrefix("update:") {
                let update = try MetadataUpdate(line: line)
                guard update.subject == 0 else { continue }
                switch update.key {
                case sinkKey: defaults.sink = try name(in: update, line: line)
                case sourceKey: defaults.source = try name(in: update, line: line)
                default: continue
                }
            }
        }
        guard found else {
            let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { throw .noMetadata }
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
            throw .unparseable(line: first, reason: "not pw-metadata's output: no \"Found \\\"default\\\" metadata\" line")
        }
        return defaults
    }

    private static func name(in update: MetadataUpdate, line: String) throws(Failure) -> String {
        do {
            return try deviceName(fromJSON: update.value)
        } catch .unparseable(_, let reason) {
            throw .unparseable(line: line, reason: "\(update.key): \(reason)")
        } catch {
            throw error
        }
    }

    /// The `name` of a default's SPA JSON value: `{ "name": "usb_headset" }` as pipewire-pulse
    /// writes it, `{"name":"usb_headset"}` as WirePlumber does, or any relaxed SPA JSON form
    /// (`{ name = usb_headset }`: bare words, `=` or `:`, commas optional). Strings are
    /// unescaped (`\"`, `\\`, `\n`, `\uXXXX`, …). Other members are skipped.
    ///
    /// Throws ``Failure/unparseable(line:reason:)`` (with `value` as the line) for anything
    /// else: not an object, no `name`, a `name` that is not a non-empty string, or text after
    /// the object.
    public static func deviceName(fromJSON value: String) throws(Failure) -> String {
        var scanner = SPAJSONScanner(value)
        guard let name = try scanner.nameMember() else {
            throw .unparseable(line: value, reason: "the object has no \"name\"")
        }
        guard !name.isEmpty else { throw .unparseable(line: value, reason: "the name is empty") }
        return name
    }

    // MARK: Failures

    /// Why the configured defaults could not be read.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// `pw-metadata` is not installed: it is in none of these directories (the `PATH`
        /// searched), or the path given is not an executable file.
        case toolMissing(executable: String, searched: [String])
        /// `pw-metadata` could not be started.
        case launchFailed(path: String, reason: String)
        /// `pw-metadata` exited with a status other than 0 (255 when it cannot reach PipeWire),
        /// having written `standardError`.
        case failed(status: Int32, standardError: String)
        /// A signal ended `pw-metadata`.
        case killed(signal: Int32, standardError: String)
        /// `pw-metadata` had not finished within the timeout and was killed.
        case timedOut(after: Duration)
        /// PipeWire has no `default` metadata (no session manager such as WirePlumber runs),
        /// so configured defaults cannot be known.
        case noMetadata
        /// `line` of the output could not be read, for `reason`.
        case unparseable(line: String, reason: String)

        /// One sentence for people.
        public var description: String {
            switch self {
            case .toolMissing(let executable, let searched):
                if executable.contains("/") { return "\(executable) is not an executable file (is pipewire-bin installed?)" }
                return "\(executable) is not installed: not found in \(searched.joined(separator: ":")) (it comes with pipewire-bin)"
            case .launchFailed(let path, let reason):
                return "could not start \(path): \(reason)"
            case .failed(let status, let standardError):
                return "pw-metadata failed with status \(status)" + Self.quoting(standardError)
            case .killed(let signal, let standardError):
                return "pw-metadata was killed by signal \(signal)" + Self.quoting(standardError)
            case .timedOut(let timeout):
                return "pw-metadata did not finish within \(timeout) and was killed (is PipeWire frozen?)"
            case .noMetadata:
                return "PipeWire has no \"default\" metadata (is WirePlumber running?)"
            case .unparseable(let line, let reason):
                return "cannot read pw-metadata's output \"\(line)\": \(reason)"
            }
        }

        private static func quoting(_ standardError: String) -> String {
            let text = standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "" : ": \(text)"
        }
    }

    // MARK: Finding the program

    /// The path of `executable`: itself when it has a `/`, else the first executable file of
    /// that name in `PATH` (the environment's, else this process's, else the usual one).
    static func locate(_ executable: String, in environment: [String: String]) throws(Failure) -> String {
        if executable.contains("/") {
            guard access(executable, X_OK) == 0 else { throw .toolMissing(executable: executable, searched: []) }
            return executable
        }
        let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        for directory in directories {
            let candidate = directory.hasSuffix("/") ? directory + executable : directory + "/" + executable
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT != S_IFDIR, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw .toolMissing(executable: executable, searched: directories)
    }
}

// MARK: - One update line

/// `update: id:<subject> key:'<key>' value:'<value>' type:'<type>'`, as pw-metadata prints it.
/// Values are printed unescaped, so the value runs to the last `' type:'` of the line.
private struct MetadataUpdate {
    var subject: UInt32
    var key: String
    var value: String
    var type: String

    init(line: String) throws(PipeWireConfiguredDefaults.Failure) {
        func malformed(_ reason: String) -> PipeWireConfiguredDefaults.Failure {
            .unparseable(line: line, reason: "not an update line of the form update: id:N key:'…' value:'…' type:'…' (\(reason))")
        }
        guard line.hasPrefix("update: id:"),
              let keyStart = line.range(of: " key:'") else { throw malformed("no id or key") }
        let idText = line[line.index(line.startIndex, offsetBy: "update: id:".count)..<keyStart.lowerBound]
        guard let subject = UInt32(idText) else { throw malformed("the id is not a number") }
        guard let keyEnd = line.range(of: "' value:'", range: keyStart.upperBound..<line.endIndex) else {
            throw malformed("no value")
        }
        guard let typeStart = line.range(of: "' type:'", options: .backwards, range: keyEnd.upperBound..<line.endIndex),
              line.hasSuffix("'"), typeStart.upperBound < line.endIndex else {
            throw malformed("no type")
        }
        self.subject = subject
        key = String(line[keyStart.upperBound..<keyEnd.lowerBound])
        value = String(line[keyEnd.upperBound..<typeStart.lowerBound])
        type = String(line[typeStart.upperBound..<line.index(before: line.endIndex)])
    }
}

// MARK: - SPA JSON

/// Just enough of SPA JSON (PipeWire's relaxed JSON) to read a default's `name`: an object
/// whose keys and values are strings or bare words, `:` or `=` between them, commas
/// optional, nested containers skipped.
private struct SPAJSONScanner {
    typealias Failure = PipeWireConfiguredDefaults.Failure

    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    private func failure(_ reason: String) -> Failure { .unparseable(line: text, reason: reason) }

    /// The value of the object's `name` member, nil when it has none.
    mutating func nameMember() throws(Failure) -> String? {
        skipSpace()
        guard next() == "{" else { throw failure("not a SPA JSON object") }
        var name: String?
        while true {
            skipSeparators()
            guard let scalar = peek() else { throw failure("the object is not closed") }
            if scalar == "}" {
                position += 1
                break
            }
            let key = try keyToken()
            skipSpace()
            if peek() == ":" || peek() == "=" { position += 1 }
            skipSpace()
            guard let start = peek() else { throw failure("\"\(key)\" has no value") }
            if key == "name" {
                switch start {
                case "\"": name = try quotedString()
                case "{", "[": throw failure("the name is not a string")
                default:
                    let word = bareWord()
                    guard !word.isEmpty, word != "null", word != "true", word != "false",
                          Double(word) == nil else { throw failure("the name is not a string (\(word.isEmpty ? "nothing" : word))") }
                    name = word
                }
            } else {
                try skipValue()
            }
        }
        skipSpace()
        guard position == scalars.count else { throw failure("text after the object") }
        return name
    }

    private mutating func keyToken() throws(Failure) -> String {
        if peek() == "\"" { return try quotedString() }
        let word = bareWord()
        guard !word.isEmpty else { throw failure("expected a key at \"\(String(String.UnicodeScalarView(scalars[position...])))\"") }
        return word
    }

    private mutating func skipValue() throws(Failure) {
        switch peek() {
        case "\"":
            _ = try quotedString()
        case "{", "[":
            var depth = 0
            while let scalar = next() {
                switch scalar {
                case "\"":
                    position -= 1
                    _ = try quotedString()
                case "{", "[": depth += 1
                case "}", "]":
                    depth -= 1
                    if depth == 0 { return }
                default: break
                }
            }
            throw failure("a nested value is not closed")
        default:
            guard !bareWord().isEmpty else { throw failure("expected a value") }
        }
    }

    /// A quoted string, unescaped as SPA JSON does: the usual escapes, `\uXXXX` (surrogate
    /// pairs joined), and any other escaped character as itself.
    private mutating func quotedString() throws(Failure) -> String {
        position += 1  // the opening quote
        var result = String.UnicodeScalarView()
        while let scalar = next() {
            switch scalar {
            case "\"":
                return String(result)
            case "\\":
                guard let escaped = next() else { break }
                switch escaped {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "u": result.append(try unicodeEscape())
                default: result.append(escaped)
                }
            default:
                result.append(scalar)
            }
        }
        throw failure("a string is not closed")
    }

    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high), peek() == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" {
            position += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a \\u surrogate pair is broken") }
            let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            if let scalar = Unicode.Scalar(combined) { return scalar }
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("\\u\(String(high, radix: 16)) is not a character") }
        return scalar
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = next(), let digit = scalar.properties.isASCIIHexDigit ? UInt32(String(scalar), radix: 16) : nil else {
                throw failure("a \\u escape needs four hexadecimal digits")
            }
            value = value * 16 + digit
        }
        return value
    }

    /// A run of characters up to a space or a structural character (SPA JSON's bare words).
    private mutating func bareWord() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek(), !scalar.properties.isWhitespace, !"{}[]:=,\"".unicodeScalars.contains(scalar) {
            result.append(scalar)
            position += 1
        }
        return String(result)
    }

    private mutating func skipSpace() {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
    }

    private mutating func skipSeparators() {
        while let scalar = peek(), scalar.properties.isWhitespace || scalar == "," { position += 1 }
    }

    private func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func next() -> Unicode.Scalar? {
        guard position < scalars.count else { return nil }
        defer { position += 1 }
        return scalars[position]
    }
}

// MARK: - Running pw-metadata

/// One run of a short-lived program, with its output captured and a time limit, supervised
/// by a thread of its own that spawns it, drains its pipes, and reaps it. The child is reaped
/// only under the lock after `waitid(WNOWAIT)` saw it exit, so a kill (timeout or
/// cancellation) can never reach a recycled pid.
private final class MetadataProcess: Sendable {
    enum Termination: Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Something else reaped the child.
        case unknown
    }

    struct Completion: Sendable {
        var termination: Termination
        var standardOutput: String
        var standardError: String
        var timedOut: Bool
    }

    private struct State {
        var pid: pid_t?
        var reaped = false
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Runs `commandLine` (an absolute path first) with exactly `environment`; kills it when
    /// `timeout` passes or the calling task is cancelled.
    static func run(_ commandLine: [String], environment: [String: String],
                    timeout: Duration) async throws(PipeWireConfiguredDefaults.Failure) -> Completion {
        let process = MetadataProcess()
        let result: Result<Completion, PipeWireConfiguredDefaults.Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: process.supervise(commandLine, environment: environment,
                                                                     deadline: .now + timeout))
                }
                thread.name = "RouteKit pw-metadata"
                thread.start()
            }
        } onCancel: {
            process.cancel()
        }
        return try result.get()
    }

    /// Kills the child unless it has been reaped, and keeps it from starting if it has not.
    private func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let pid = state.pid, !state.reaped { _ = Glibc.kill(pid, SIGKILL) }
        }
    }

    private func signalIfRunning(_ signal: Int32) {
        state.withLock { state in
            if let pid = state.pid, !state.reaped { _ = Glibc.kill(pid, signal) }
        }
    }

    /// The body of the supervising thread: blocks until the child has been reaped.
    private func supervise(_ commandLine: [String], environment: [String: String],
                           deadline: ContinuousClock.Instant) -> Result<Completion, PipeWireConfiguredDefaults.Failure> {
        let output: (read: Int32, write: Int32), error: (read: Int32, write: Int32)
        do throws(PipeWireConfiguredDefaults.Failure) {
            output = try Self.makePipe(for: commandLine[0])
            do throws(PipeWireConfiguredDefaults.Failure) {
                error = try Self.makePipe(for: commandLine[0])
            } catch {
                close(output.read)
                close(output.write)
                throw error
            }
        } catch {
            return .failure(error)
        }
        let spawned: Result<pid_t, PipeWireConfiguredDefaults.Failure> = state.withLock { state in
            if state.cancelled { return .failure(.killed(signal: SIGKILL, standardError: "")) }
            let result = Self.spawn(commandLine, environment: environment, output: output.write, error: error.write)
            if case .success(let pid) = result { state.pid = pid }
            return result
        }
        close(output.write)
        close(error.write)
        guard case .success(let pid) = spawned else {
            close(output.read)
            close(error.read)
            if case .failure(let failure) = spawned { return .failure(failure) }
            return .failure(.launchFailed(path: commandLine[0], reason: "unknown"))
        }

        let drained = Self.drain(output.read, error.read, deadline: deadline) { signalIfRunning(SIGKILL) }
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let status: Int32? = state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            state.reaped = true
            return reaped == pid ? status : nil
        }
        // WIFEXITED and friends are C macros that Swift cannot import.
        let termination: Termination = status.map { $0 & 0x7F == 0 ? .exited(($0 >> 8) & 0xFF) : .signaled($0 & 0x7F) } ?? .unknown
        return .success(Completion(termination: termination,
                                   standardOutput: String(decoding: drained.output, as: UTF8.self),
                                   standardError: String(decoding: drained.error, as: UTF8.self),
                                   timedOut: drained.timedOut))
    }

    /// A pipe whose ends are closed on `exec`, so that no other child inherits them.
    private static func makePipe(for path: String) throws(PipeWireConfiguredDefaults.Failure) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        // `pipe2` sets close-on-exec atomically; Swift's Glibc module omits it, so look it up.
        if let symbol = dlsym(nil, "pipe2") {
            let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
            guard pipe2(&descriptors, O_CLOEXEC) == 0 else {
                throw .launchFailed(path: path, reason: "no pipe: \(String(cString: strerror(errno)))")
            }
        } else {
            guard pipe(&descriptors) == 0 else {
                throw .launchFailed(path: path, reason: "no pipe: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Starts the child with `/dev/null` as standard input, default signal dispositions, an
    /// empty signal mask, and no descriptor above 2 (where glibc can close them).
    private static func spawn(_ commandLine: [String], environment: [String: String],
                              output: Int32, error: Int32) -> Result<pid_t, PipeWireConfiguredDefaults.Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number: Int32 in 1..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = commandLine.map { strdup($0) } + [nil]
        let variables = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, commandLine[0], &actions, &attributes, arguments, variables)
        guard result == 0 else {
            return .failure(.launchFailed(path: commandLine[0], reason: String(cString: strerror(result))))
        }
        return .success(pid)
    }

    /// Reads both pipes until both end, then closes them. When `deadline` passes first, calls
    /// `expire` (which kills the child) and reads for at most two more seconds.
    private static func drain(_ output: Int32, _ error: Int32, deadline: ContinuousClock.Instant,
                              expire: () -> Void) -> (output: [UInt8], error: [UInt8], timedOut: Bool) {
        var collected: ([UInt8], [UInt8]) = ([], [])
        var timedOut = false
        var polled = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: error, events: Int16(POLLIN), revents: 0)]
        var limit = deadline
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while polled.contains(where: { $0.fd >= 0 }) {
            let remaining = limit - ContinuousClock.now
            if remaining <= .zero {
                if timedOut { break }
                timedOut = true
                expire()
                limit = ContinuousClock.now + .seconds(2)
                continue
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000
                + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&polled, nfds_t(polled.count), milliseconds)
            if ready < 0 && errno != EINTR { break }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = read(polled[index].fd, &buffer, buffer.count)
                if count > 0 {
                    if index == 0 { collected.0.append(contentsOf: buffer[..<count]) }
                    else { collected.1.append(contentsOf: buffer[..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(polled[index].fd)
                    polled[index].fd = -1
                }
            }
        }
        for entry in polled where entry.fd >= 0 { close(entry.fd) }
        return (collected.0, collected.1, timedOut)
    }
}
