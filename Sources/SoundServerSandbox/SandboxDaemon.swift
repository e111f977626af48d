/// One long-running process of a sandbox, and how to start it.
enum SandboxDaemon: String, Sendable, CaseIterable {
    /// The private D-Bus session bus that PipeWire and WirePlumber use.
    case sessionBus = "dbus-daemon"
    /// The PipeWire graph.
    case pipewire
    /// The session manager: default devices and policy.
    case wireplumber
    /// The PulseAudio protocol on PipeWire.
    case pipewirePulse = "pipewire-pulse"
    /// The whole of a PulseAudio server.
    case pulseaudio

    /// The program's name, looked up in `PATH`.
    var executableName: String { rawValue }

    /// Where its standard output and standard error go, inside the sandbox directory.
    var logFileName: String { rawValue + ".log" }

    /// Its arguments for a sandbox in `directory`.
    func arguments(directory: String) -> [String] {
        switch self {
        case .sessionBus:
            ["--session", "--nofork", "--nopidfile", "--nosyslog", "--address=unix:path=\(directory)/bus"]
        case .pipewire, .wireplumber, .pipewirePulse:
            []
        case .pulseaudio:
            [
                "-n",  // no default.pa: no sinks or sources until a test loads them
                "--daemonize=no",
                "--exit-idle-time=-1",
                "--use-pid-file=no",
                "--log-target=stderr",
                "--no-cpu-limit=yes",  // busy benchmarks must not trip the CPU watchdog
                "--realtime=no",
                "--high-priority=no",
                "-L", "module-native-protocol-unix socket=\(directory)/native auth-anonymous=1",
            ]
        }
    }
}

extension SoundServerKind {
    /// The processes of a sandbox of this kind, in start order.
    var daemons: [SandboxDaemon] {
        switch self {
        case .pulseaudio: [.pulseaudio]
        case .pipewire: [.sessionBus, .pipewire, .wireplumber, .pipewirePulse]
        }
    }

    /// The process that serves the PulseAudio protocol.
    var pulseDaemon: SandboxDaemon {
        switch self {
        case .pulseaudio: .pulseaudio
        case .pipewire: .pipewirePulse
        }
    }

    /// The PulseAudio native socket of a sandbox in `directory`.
    func socketPath(directory: String) -> String {
        switch self {
        case .pulseaudio: directory + "/native"
        case .pipewire: directory + "/pulse/native"
        }
    }
}
