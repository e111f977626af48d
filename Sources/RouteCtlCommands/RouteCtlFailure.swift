import ArgumentParser
import PulseAudio

/// Why a `routectl` command failed, with the message it prints and the exit status it
/// ends with (sysexits.h values, so that scripts can tell the cases apart).
enum RouteCtlFailure: Error, CustomStringConvertible {
    /// No sound server answered.
    case serverUnreachable(server: String, reason: String)
    /// The server answered, but refused or failed a request.
    case requestFailed(PulseError)

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
        }
    }

    /// EX_UNAVAILABLE (69) or EX_SOFTWARE (70).
    var exitCode: ExitCode {
        switch self {
        case .serverUnreachable: ExitCode(69)
        case .requestFailed: ExitCode(70)
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
