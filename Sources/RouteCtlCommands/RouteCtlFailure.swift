import ArgumentParser
import DumpReader
import PulseAudio

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
    /// A D-Bus name the daemon serves is owned by another process (another daemon, callaudiod).
    case busNameTaken(String)

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
        case .busNameTaken(let message):
            message
        }
    }

    /// EX_UNAVAILABLE (69), EX_SOFTWARE (70), EX_NOINPUT (66), EX_DATAERR (65) or, for a bus
    /// name someone else owns, EX_TEMPFAIL (75: try again once they have let it go).
    var exitCode: ExitCode {
        switch self {
        case .serverUnreachable: ExitCode(69)
        case .requestFailed: ExitCode(70)
        case .unusableDumpFile(.tooLarge): ExitCode(65)
        case .unusableDumpFile: ExitCode(66)
        case .malformedDump: ExitCode(65)
        case .busNameTaken: ExitCode(75)
        }
    }
}

extension AsyncParsableCommand {
    /// Runs `body`; a ``RouteCtlFailure`` is printed on standard error as `routectl: ...`
    /// and becomes the process's exit status.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as RouteCtlFailure {
            printToStandardError("routectl: \(failure)")
            throw failure.exitCode
        }
    }
}
