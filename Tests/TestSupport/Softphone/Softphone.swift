import Foundation
import Glibc
import ProcessRunner
import PulseAudio
import SoundServerSandbox

/// One real softphone: Debian's `baresip` (baresip-core 1.0.0) as a SIP user agent on
/// 127.0.0.1, its audio through the ALSA pulse plugin on a sandbox's server, its streams
/// carrying `media.role=phone` (from `PULSE_PROP`), controlled through its `ctrl_tcp` module.
///
/// It runs in a folder of its own (its `HOME`: baresip's `config` and `accounts`, ALSA's
/// `.asoundrc`; see ``BaresipConfiguration``), is started through the package's process
/// runner under `setpriv --pdeathsig KILL`, and is stopped by its pid: ``stop()``, or
/// `SIGKILL` in `deinit` if it was never stopped. Most tests want a ``SoftphonePair``.
public final class Softphone: Sendable {
    /// The phone's SIP address, `sip:<name>@127.0.0.1:<port>`.
    public let uri: String
    /// baresip's pid: its streams' `application.process.id`.
    public let processID: Int32
    /// Every event and response from its control socket so far, in order.
    public let messages: RecordedEvents<BaresipMessage>
    /// baresip's output so far, for a failure's message.
    public let output: OutputLines
    private let process: ChildProcess
    private let control: BaresipControl
    private let home: String

    private init(uri: String, process: ChildProcess, control: BaresipControl, messages: RecordedEvents<BaresipMessage>,
                 output: OutputLines, home: String) {
        self.uri = uri
        self.processID = process.pid
        self.process = process
        self.control = control
        self.messages = messages
        self.output = output
        self.home = home
    }

    /// Starts a phone called `name` (the SIP user) playing and recording on `server`'s
    /// default sink and source, and returns once it listens for calls and commands.
    ///
    /// Its ports are picked free just before it starts; when another process took one in
    /// between (baresip ends with `EADDRINUSE`, or says a listener failed), it is started
    /// again on others, up to ``startAttempts`` times.
    public static func start(_ name: String, server: SandboxServer) async throws -> Softphone {
        try await start(name, server: server, ports: LoopbackSocket.baresipPorts)
    }

    /// How many times a phone is started on new ports before its start fails.
    package static let startAttempts = 5

    /// ``start(_:server:)`` with the ports of each attempt chosen by `ports`.
    package static func start(_ name: String, server: SandboxServer,
                              ports: () throws -> BaresipPorts) async throws -> Softphone {
        var taken: [BaresipPorts] = []
        while true {
            let chosen = try ports()
            do {
                return try await start(name, server: server, on: chosen)
            } catch let error as SoftphoneError where error.portTaken && taken.count + 1 < startAttempts {
                taken.append(chosen)
            }
        }
    }

    /// One attempt at ``start(_:server:)`` on `ports`.
    private static func start(_ name: String, server: SandboxServer, on ports: BaresipPorts) async throws -> Softphone {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-softphone-\(name)-\(UUID().uuidString)").path
        let configuration = BaresipConfiguration(user: name, sipPort: ports.sip, controlPort: ports.control,
                                                 serverAddress: server.serverAddress)
        do {
            try write(configuration, to: home)
            let (process, output) = try await launch(configuration: home + "/baresip", server: server, home: home)
            do {
                let control = try BaresipControl(port: configuration.controlPort)
                let messages = RecordedEvents<BaresipMessage>()
                await messages.follow(control.messages)
                return Softphone(uri: configuration.uri, process: process, control: control, messages: messages,
                                 output: output, home: home)
            } catch {
                process.signal(SIGKILL)
                _ = await process.completion(within: .seconds(5))
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(atPath: home)
            throw error
        }
    }

    /// Dials `uri` and returns once baresip has accepted the command (the call is then
    /// being set up: await its events in ``messages``).
    public func dial(_ uri: String) async throws {
        try await run("dial", params: uri)
    }

    /// Hangs up its current call and returns once baresip has accepted the command.
    public func hangUp() async throws {
        try await run("hangup")
    }

    /// Waits for the event `type` (`CALL_ESTABLISHED`, `CALL_CLOSED`, …) after message `mark`
    /// (a ``RecordedEvents/count`` taken before the action that causes it).
    public func event(_ type: String, after mark: Int, timeout: Duration = .seconds(15)) async throws {
        do {
            _ = try await messages.next("\(uri): \(type)", after: mark, timeout: timeout) { $0.isEvent(type) }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); baresip said:\n\(output.text)")
        }
    }

    /// Its playback and capture streams as `observer` sees them: those whose
    /// `application.process.id` is its pid.
    public func streams(seenBy observer: PulseClient) async throws -> SoftphoneStreams {
        let pid = String(processID)
        return SoftphoneStreams(
            playback: try await observer.sinkInputs().filter { $0.properties["application.process.id"] == pid },
            capture: try await observer.sourceOutputs().filter { $0.properties["application.process.id"] == pid })
    }

    /// Whether baresip has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Stops baresip by its pid: `SIGTERM` (it hangs up and exits), `SIGKILL` if it has not
    /// ended 3 seconds later; returns once it has been reaped, and deletes its folder.
    public func stop() async {
        control.shutdown()
        if process.signal(SIGTERM), await process.completion(within: .seconds(3)) == nil {
            process.signal(SIGKILL)
        }
        _ = await process.completion(within: .seconds(10))
        try? FileManager.default.removeItem(atPath: home)
    }

    deinit {
        process.signal(SIGKILL)
        control.shutdown()
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Sends `command` and waits for its response; throws if baresip refuses it.
    private func run(_ command: String, params: String = "") async throws {
        let token = try control.send(command, params: params)
        let response = try await messages.next("\(uri): the response to \(command)", after: 0) {
            if case .response(token, _, _) = $0 { true } else { false }
        }
        guard case .response(_, true, _) = response else {
            throw SoftphoneError(message: "\(uri) refused \(command) \(params): \(response)\nbaresip said:\n\(output.text)")
        }
    }

    /// Writes the configuration's files: `home/.asoundrc`, `home/baresip/{config,accounts}`.
    private static func write(_ configuration: BaresipConfiguration, to home: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/baresip", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try configuration.asoundrc.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
        try configuration.config.write(toFile: home + "/baresip/config", atomically: true, encoding: .utf8)
        try configuration.accounts.write(toFile: home + "/baresip/accounts", atomically: true, encoding: .utf8)
    }

    /// Starts baresip with the configuration folder `configuration` and waits until it says
    /// it is ready, failing with its output if it ends first.
    private static func launch(configuration: String, server: SandboxServer, home: String) async throws -> (ChildProcess, OutputLines) {
        let output = OutputLines()
        let (ready, readiness) = AsyncStream.makeStream(of: Bool.self)
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let command = ["/usr/bin/baresip", "-4", "-f", configuration]
        let environment = server.environment.merging([
            "HOME": home,
            "PULSE_PROP": "media.role=phone application.name=baresip",
        ]) { $1 }
        let process = try await ChildProcess.launch(
            setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + command } ?? command,
            environment: environment,
            output: .lines(onLine: { _, line in
                output.append(line)
                if line.contains("baresip is ready.") { readiness.yield(true) }
            }, onEnd: { readiness.finish() }))
        do {
            try await withTimeout("baresip to be ready", .seconds(15)) {
                for await _ in ready {
                    // A listener that failed (ctrl_tcp) does not stop baresip from saying it is ready.
                    guard !output.text.contains(addressInUse) else {
                        throw SoftphoneError(message: "baresip could not listen:\n\(output.text)", portTaken: true)
                    }
                    return
                }
                let ending = await process.completion(within: .seconds(5))
                throw SoftphoneError(message: "baresip ended before it was ready (\(String(describing: ending))):\n\(output.text)",
                                     portTaken: ending == .exited(EADDRINUSE) || output.text.contains(addressInUse))
            }
        } catch {
            process.signal(SIGKILL)
            _ = await process.completion(within: .seconds(5))
            throw error
        }
        return (process, output)
    }
}

/// A softphone's streams on the server.
public struct SoftphoneStreams: Sendable {
    /// Its sink inputs (what the call plays: the far end's voice).
    public var playback: [SinkInputInfo]
    /// Its source outputs (what the call records: the microphone).
    public var capture: [SourceOutputInfo]
    /// Whether it has no stream at all.
    public var isEmpty: Bool { playback.isEmpty && capture.isEmpty }
}

/// What baresip says when a port it listens on is taken.
private let addressInUse = "Address already in use"

/// The softphone did not do what it was told; the message has baresip's output.
public struct SoftphoneError: Error, CustomStringConvertible {
    /// What happened.
    public var message: String
    /// Whether baresip could not start because a port it was given had been taken.
    public var portTaken = false
    /// The message.
    public var description: String { message }
}
