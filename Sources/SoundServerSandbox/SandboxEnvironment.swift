import FoundationEssentials

/// The environments of a sandbox's processes.
enum SandboxEnvironment {
    /// The only variables taken from the test process: where programs are, and the locale.
    /// Everything else (`PULSE_*`, `PIPEWIRE_*`, `DBUS_*`, `DISPLAY`, `XDG_*`, `HOME`…) could
    /// lead a sandboxed process to the user's real session.
    static func inherited(from environment: [String: String]) -> [String: String] {
        environment.filter { key, _ in
            key == "PATH" || key == "LANG" || key == "LANGUAGE" || key == "TZ" || key.hasPrefix("LC_")
        }
    }

    /// What a client of a sandbox of `kind` in `directory` needs (``SandboxServer/environment``).
    static func client(kind: SoundServerKind, directory: String, serverAddress: String) -> [String: String] {
        var environment = [
            "PULSE_SERVER": serverAddress,
            "HOME": directory,
            "XDG_RUNTIME_DIR": directory,
        ]
        if kind == .pipewire {
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
            environment["PIPEWIRE_RUNTIME_DIR"] = directory
        }
        return environment
    }

    /// What the sandbox's own processes (daemons and `pactl`) get: the inherited variables,
    /// the client environment and, for PipeWire, the private bus as the *system* bus too, so
    /// that WirePlumber and PipeWire never reach the machine's BlueZ, logind or RTKit.
    static func process(kind: SoundServerKind, directory: String, client: [String: String]) -> [String: String] {
        var environment = inherited(from: ProcessInfo.processInfo.environment)
        if environment["PATH"] == nil {
            environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        }
        environment.merge(client) { _, sandbox in sandbox }
        if kind == .pipewire {
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
        }
        return environment
    }
}
