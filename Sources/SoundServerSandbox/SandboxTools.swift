import ProcessRunner

/// The programs a sandbox runs, found once, before anything starts.
struct SandboxTools: Sendable {
    /// Absolute path of `pactl`.
    let pactl: String
    /// Absolute path of each daemon of the kind.
    let daemons: [SandboxDaemon: String]
    /// Absolute path of util-linux's `setpriv`, if installed: it makes each daemon die with
    /// the test process (`--pdeathsig KILL`) even when that process crashes.
    let setpriv: String?

    /// Finds everything a sandbox of `kind` needs, in `PATH` and then the usual directories.
    static func locate(for kind: SoundServerKind, path: String?) throws(SandboxError) -> SandboxTools {
        let directories = ExecutableSearch.directories(inPath: path ?? "")
            + ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        func find(_ name: String) -> String? {
            ExecutableSearch.find(name, in: directories)
        }
        var daemons: [SandboxDaemon: String] = [:]
        for daemon in kind.daemons {
            guard let found = find(daemon.executableName) else {
                throw SandboxError("\(daemon.executableName) is not installed (needed for a \(kind) sandbox)")
            }
            daemons[daemon] = found
        }
        guard let pactl = find("pactl") else {
            throw SandboxError("pactl is not installed (Debian: pulseaudio-utils)")
        }
        return SandboxTools(pactl: pactl, daemons: daemons, setpriv: find("setpriv"))
    }

    /// The command line that starts `daemon` in `directory`.
    func commandLine(for daemon: SandboxDaemon, directory: String) -> [String] {
        let command = [daemons[daemon]!] + daemon.arguments(directory: directory)
        guard let setpriv else { return command }
        return [setpriv, "--pdeathsig", "KILL", "--"] + command
    }
}
