import ArgumentParser
import DumpReader
import PulseAudio
import RouteKitDaemon
import TextSupport

/// Why a `routectl` command failed, with the message it prints and the exit status it
/// ends with (sysexits.h values, so that scripts can tell the cases apart).
enum RouteCtlFailure: Error, CustomStringConvertible {
    /// No sound server answered.
    case serverUnreachable(server: String, reason: String)
    /// The server answered, but refused or failed a request.
    case requestFailed(PulseError)
    /// A dump file could not be opened, is not a regular file, or is too large to be one.
    case unusableDumpFile(DumpFileError)
    /// A dump could not be understood.
    case malformedDump(path: String, line: Int, message: String)
    /// What was named is no kind routectl knows, or a kind never chosen by kind (usage).
    case invalidChoice(String)
    /// No present, usable device is what was named; the message lists what is there.
    case noSuchDevice(String)
    /// The command needs the daemon, and none is running.
    case needsDaemon(String)
    /// The command needs the daemon, and there is no session bus to find it on.
    case noSessionBus(String)
    /// The daemon was found, then did not answer: it stopped, hung, or the bus went away.
    case daemonUnanswered(String)
    /// The daemon answered with an error that is neither about a device nor a preference:
    /// its server refused, or it is another version.
    case daemonFailed(String)
    /// `routectl daemon` could not start or go on: its configuration unreadable or invalid,
    /// a bus name taken, the server failing; the daemon library's words.
    case daemon(DaemonFailure)

    var description: String {
        switch self {
        case .serverUnreachable(let server, let reason):
            """
            cannot reach a sound server at \(server): \(reason).
            Is PulseAudio or PipeWire (with pipewire-pulse) running for this user? \
            Pick another server with --server or PULSE_SERVER.
            """
        case .requestFailed(let error):
            "the server could not \(error.operation): \(error.reason)"
        case .unusableDumpFile(let error):
            "\(error)"
        case .malformedDump(let path, let line, let message):
            "\(path):\(line): \(message)"
        case .invalidChoice(let message), .noSuchDevice(let message), .needsDaemon(let message),
             .noSessionBus(let message), .daemonUnanswered(let message), .daemonFailed(let message):
            message
        case .daemon(let failure):
            "\(failure)"
        }
    }

    /// sysexits.h values, documented in `routectl --help` and Docs/CommandLine.md: EX_USAGE
    /// (64), EX_DATAERR (65), EX_NOINPUT (66), EX_NOUSER (67: no such device), EX_NOHOST (68:
    /// no daemon, or it stopped answering), EX_UNAVAILABLE (69: no sound server), EX_SOFTWARE
    /// (70: a request failed, the server's or the daemon's), EX_OSFILE (72: no session bus),
    /// EX_TEMPFAIL (75: a bus name the daemon serves is owned by another process; try again
    /// once it has let it go), EX_CONFIG (78: an invalid configuration).
    var exitCode: ExitCode {
        switch self {
        case .serverUnreachable: ExitCode(69)
        case .requestFailed: ExitCode(70)
        case .unusableDumpFile(.tooLarge): ExitCode(65)
        case .unusableDumpFile: ExitCode(66)
        case .malformedDump: ExitCode(65)
        case .invalidChoice: ExitCode(64)
        case .noSuchDevice: ExitCode(67)
        case .needsDaemon, .daemonUnanswered: ExitCode(68)
        case .daemonFailed: ExitCode(70)
        case .noSessionBus: ExitCode(72)
        case .daemon(.requestFailed): ExitCode(70)
        case .daemon(.unreadableConfiguration): ExitCode(66)
        case .daemon(.invalidChoice): ExitCode(64)
        case .daemon(.busNameTaken): ExitCode(75)
        case .daemon(.invalidConfiguration): ExitCode(78)
        }
    }
}

extension RouteCtlFailure {
    /// ``exitCode`` as a number.
    var exitStatus: Int32 { exitCode.rawValue }
}

extension AsyncParsableCommand {
    /// Runs `body`; a ``RouteCtlFailure`` (or the daemon library's `DaemonFailure`, as
    /// ``RouteCtlFailure/daemon(_:)``) is written (to standard error unless `write` says
    /// otherwise) as `routectl: ...`, control characters escaped (it may quote a server, a
    /// bus owner's command name or a file), and becomes the process's exit status.
    func reportingFailures(write: (String) -> Void = printToStandardError, _ body: () async throws -> Void) async throws {
        do {
            do {
                try await body()
            } catch let failure as DaemonFailure {
                throw RouteCtlFailure.daemon(failure)
            }
        } catch let failure as RouteCtlFailure {
            write("routectl: " + TerminalText.escaped("\(failure)"))
            throw failure.exitCode
        }
    }
}
