import ProcessRunner

extension SandboxServer {
    /// The version of the server program this sandbox runs, as the program itself reports it:
    /// `16.1` from `pulseaudio --version`, `1.4.2` from the libpipewire that `pipewire
    /// --version` says it is linked with. Tests compare the server's own answers with it
    /// instead of assuming one release.
    public func serverVersion() async throws -> String {
        let daemon: SandboxDaemon = kind == .pulseaudio ? .pulseaudio : .pipewire
        let commandLine = [tools.daemons[daemon]!, "--version"]
        let completion: ChildProcess.Completion
        do {
            completion = try await ChildProcess.run(commandLine, environment: processEnvironment, timeLimit: .seconds(10))
        } catch {
            throw SandboxError(error)
        }
        guard completion.termination == .exited(0),
              let version = Self.version(fromVersionOutput: completion.standardOutput) else {
            throw SandboxError("\(daemon.executableName) --version printed no version", command: commandLine,
                               exitStatus: completion.termination.exitStatus, standardError: completion.standardError)
        }
        return version
    }

    /// The version in a server's `--version` output: the line saying what it is linked with
    /// if there is one (`pipewire`: "Compiled with libpipewire 1.4.2" then "Linked with
    /// libpipewire 1.4.2"), else the first line (`pulseaudio 16.1`); the last word of it.
    static func version(fromVersionOutput output: String) -> String? {
        let lines = output.split(separator: "\n")
        let line = lines.first { $0.hasPrefix("Linked with") } ?? lines.first
        guard let word = line?.split(separator: " ").last, word.first?.isNumber == true else { return nil }
        return String(word)
    }
}
