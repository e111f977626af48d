import ArgumentParser
import AudioContext
import DBus
import Dispatch
import FoundationEssentials
import Glibc
import Logging
import ProcessRunner
import PulseAudio
import RouteKit
import RouteKitDBus
import UnixSignals
import RouteKitDaemon

/// `routectl volume-keys`: the volume keys, captured, one line (or one command) per press.
struct VolumeKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "volume-keys",
        abstract: "Capture the volume keys: print each press, or run a command for it, until interrupted.",
        discussion: """
            While it runs, a volume change on the default output is a key press: it is printed \
            (up, down or mute, one line each) and undone, and the output is kept one step inside \
            0 … 100 % so that presses at the ends are still seen. Ctrl-C, SIGTERM or SIGHUP (its \
            terminal closed) stops it and puts the volume back as it was; under nohup, which \
            ignores SIGHUP, capture outlives the terminal. When the daemon runs, the daemon captures for it \
            (StartVolumeCapture, VolumeButtonPressed); otherwise routectl captures on the \
            server itself.

              routectl volume-keys
              routectl volume-keys --exec 'notify-send "volume $ROUTEKIT_BUTTON"'
              routectl volume-keys --json | jq -r .button

            --exec runs the command with /bin/sh for each press, one at a time, with \
            ROUTEKIT_BUTTON set to up, down or mute; a command that fails is said on standard \
            error, and capture goes on.
            """)

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print one JSON object per line per press: {\"button\": \"up\"}.")
    var json = false

    /// How much of RouteKit's own log goes to standard error (capture on the server only).
    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "How much of RouteKit's own log to write on standard error when routectl captures on the server itself.",
        valueName: "level"))
    var logLevel: LogLevelOption = .critical

    @Option(name: .customLong("exec"), help: ArgumentHelp("Run COMMAND with /bin/sh for each press, ROUTEKIT_BUTTON set.",
                                                          valueName: "command"))
    var command: String?

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let hangupIgnored = Self.isIgnored(SIGHUP)
        let signals = await UnixSignalsSequence(trapping: Self.stoppingSignals(hangupIgnored: hangupIgnored))
        // A terminal on standard input is watched too: a background job whose shell exits
        // without passing SIGHUP on (bash's default) sees its terminal hang up, and no signal.
        let watchesTerminal = !hangupIgnored && isatty(STDIN_FILENO) == 1
        let stopped: @Sendable () async -> Void = { await Self.stopRequest(signals: signals, watchingTerminal: watchesTerminal) }
        let (presses, press) = AsyncStream.makeStream(of: String.self)
        try await reportingFailures {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.capture(until: stopped, presses: press) }
                group.addTask { await self.answer(presses) }
                try await group.waitForAll()
            }
        }
    }

    /// The signals that end capture, putting the volume back: Ctrl-C, SIGTERM, and SIGHUP (the
    /// kernel's when the terminal closes, or a shell's passing its own on to its jobs), unless
    /// SIGHUP was ignored when routectl started (`nohup`): then capture outlives the terminal.
    static func stoppingSignals(hangupIgnored: Bool) -> [UnixSignal] {
        hangupIgnored ? [.sigint, .sigterm] : [.sigint, .sigterm, .sighup]
    }

    /// Whether `signal` is ignored (`SIG_IGN`) now, as `nohup` leaves SIGHUP: read before
    /// anything traps it.
    static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Returns when capture should end: one of `signals` came, or (`watchingTerminal`) the
    /// terminal on standard input hung up.
    static func stopRequest(signals: UnixSignalsSequence, watchingTerminal: Bool) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in signals { return } }
            if watchingTerminal { group.addTask { await Self.hangup(of: STDIN_FILENO) } }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when the terminal `descriptor` hangs up (its window closed: `poll(2)` says
    /// POLLHUP), or when the task is cancelled. It waits for the hangup alone, never reading:
    /// a background job is not stopped for reading its terminal, and typing wakes nothing. The
    /// blocking `poll` runs on a dispatch thread, off Swift's pool; cancelling writes to a pipe
    /// it also polls.
    static func hangup(of descriptor: Int32) async {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            // No way to wake a poll: the terminal goes unwatched, the signals still stop capture.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            return
        }
        let (wake, waker) = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer {
            close(wake)
            close(waker)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    var watched = [pollfd(fd: descriptor, events: 0, revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                    while poll(&watched, 2, -1) < 0 && errno == EINTR {}
                    continuation.resume()
                }
            }
        } onCancel: {
            _ = write(waker, "x", 1)
        }
    }

    /// Captures through the daemon when it runs, else on the server, until `stopped` returns;
    /// each press goes to `presses`, which it finishes.
    private func capture(until stopped: @Sendable () async -> Void, presses: AsyncStream<String>.Continuation) async throws {
        defer { presses.finish() }
        let environment = ProcessInfo.processInfo.environment
        switch await DaemonLocator.locate(environment: environment) {
        case .daemon(let control as DaemonRoutingControl):
            try await captureThroughDaemon(control.bus, until: stopped, presses: presses)
        case .unanswered(let why):
            throw RouteCtlFailure.daemonUnanswered(why)
        default:
            try await captureOnServer(until: stopped, presses: presses)
        }
    }

    private func captureOnServer(until stopped: @Sendable () async -> Void, presses: AsyncStream<String>.Continuation) async throws {
        // The log (quiet unless --log-level) goes through a writer of its own, never waited for.
        let output = LineWriter.standardError
        defer { output.flush(timeout: .milliseconds(500)) }
        let logger = logLevel.logger(label: "routectl.volume-keys", writingTo: output)
        // Clients too: on pipewire-pulse their coming and going is when the connection can miss
        // a change of the default, which the healer then reads on a new connection.
        let client = try await server.connectLongLived(applicationName: "routectl volume-keys",
                                                       subscription: [.devices, .clients], logger: logger)
        defer { client.shutdown() }
        let isPipeWire = (try? await client.serverInfo())?.implementation == .pipewire
        let healer = isPipeWire ? MissedDefaultHealer(server: client, logger: logger) : nil
        let capture = VolumeButtonCapture(server: client, logger: logger)
        let (commands, command) = AsyncStream.makeStream(of: VolumeCaptureCommand.self)
        command.yield(.start)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await capture.run(commands: commands) { event in
                    switch event {
                    case .capturing(let sink, _, _): printToStandardError("volume-keys: capturing \(sink) (Ctrl-C to stop)")
                    case .waitingForSink: printToStandardError("volume-keys: waiting for a default output")
                    case .pressed(let button, _): presses.yield(button.rawValue)
                    case .released(let sink, _): printToStandardError("volume-keys: released \(sink), its volume as it was")
                    }
                }
            }
            // The healer runs until the stop; capture then ends by itself, its volume put back.
            await withDiscardingTaskGroup { healing in
                if let healer { healing.addTask { await healer.run() } }
                await stopped()
                healing.cancelAll()
            }
            command.finish()
        }
    }

    private func captureThroughDaemon(_ bus: DaemonBus, until stopped: @Sendable () async -> Void,
                                      presses: AsyncStream<String>.Continuation) async throws {
        let rule = "type='signal',interface='\(RouteKitInterface.name)',member='\(RouteKitSignal.Kind.volumeButtonPressed.member)',path='\(RouteKitInterface.path)'"
        let signals = try await bus.connection.signals(matching: rule)
        _ = try await bus.call("StartVolumeCapture")
        printToStandardError("volume-keys: the daemon captures (Ctrl-C to stop)")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    if let button = signal.arguments.first?.stringValue { presses.yield(button) }
                }
            }
            await stopped()
            group.cancelAll()
        }
        _ = try await bus.call("StopVolumeCapture")
        printToStandardError("volume-keys: the daemon released the volume keys, the volume as it was")
    }

    /// Prints each press, or runs `--exec` for it, one at a time.
    private func answer(_ presses: AsyncStream<String>) async {
        for await button in presses {
            guard let command else {
                StandardOutput.write(json ? "{\"button\":\"\(button)\"}\n" : button + "\n")
                continue
            }
            var environment = ProcessInfo.processInfo.environment
            environment["ROUTEKIT_BUTTON"] = button
            do {
                let run = try await ChildProcess.run(["/bin/sh", "-c", command], environment: environment, timeLimit: .seconds(60))
                if run.termination != .exited(0) {
                    printToStandardError("volume-keys: '\(command)' ended with \(run.termination) for \(button)")
                }
            } catch {
                printToStandardError("volume-keys: could not run '\(command)': \(error)")
            }
        }
    }
}
