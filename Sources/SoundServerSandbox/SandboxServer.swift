import ConcurrencySupport
import FoundationEssentials
import Glibc
import ProcessRunner

/// A private sound server for tests, benchmarks and demos: PulseAudio, or PipeWire with
/// WirePlumber and pipewire-pulse, in a new temporary directory, with no sound hardware and
/// nothing shared with the user's session.
///
/// ```swift
/// try await SandboxServer.withServer(.pipewire) { server in
///     let headset = try await server.loadNullSink(
///         name: "bt", properties: ["device.bus": "bluetooth", "device.description": "BT Headset"])
///     // connect a client to server.serverAddress …
///     try await server.unloadModule(headset)
/// }
/// ```
///
/// A sandbox only ever signals the processes it started, by pid. ``stop()`` ends them and
/// deletes the directory; a sandbox released without `stop()` kills them in `deinit`; and where
/// util-linux's `setpriv` is installed, they also die if the test process crashes.
public final class SandboxServer: Sendable {
    /// Which server runs in this sandbox.
    public let kind: SoundServerKind

    /// The sandbox's temporary directory: the `HOME` and `XDG_RUNTIME_DIR` of its processes,
    /// holding their sockets, state and logs (`<program>.log`).
    public let directory: String

    /// The path of the PulseAudio native protocol socket.
    public let socketPath: String

    /// `"unix:"` followed by ``socketPath``: the value for `PULSE_SERVER` or
    /// `pa_context_connect`.
    public var serverAddress: String { "unix:" + socketPath }

    /// What a child process needs to talk to this server and nothing else: `PULSE_SERVER`,
    /// `HOME` and `XDG_RUNTIME_DIR` set to ``directory`` and, for PipeWire,
    /// `DBUS_SESSION_BUS_ADDRESS` (the sandbox's bus) and `PIPEWIRE_RUNTIME_DIR`.
    /// Merge it over the child's environment.
    public let environment: [String: String]

    /// The environment of the sandbox's own processes.
    let processEnvironment: [String: String]

    /// The programs it runs.
    let tools: SandboxTools

    let state = LockedValue(State())

    struct State {
        /// The processes started and not yet reaped by ``crash()`` or ``stop()``, in start order.
        var children: [Child] = []
        var lifecycle = Lifecycle.running
    }

    /// A started process and its role.
    struct Child: Sendable {
        let daemon: SandboxDaemon
        let process: ChildProcess
    }

    enum Lifecycle {
        case running
        case stopping(Task<Void, Never>)
        case stopped
    }

    init(kind: SoundServerKind, directory: String, tools: SandboxTools) {
        self.kind = kind
        self.directory = directory
        self.tools = tools
        socketPath = kind.socketPath(directory: directory)
        environment = SandboxEnvironment.client(kind: kind, directory: directory, serverAddress: "unix:" + socketPath)
        processEnvironment = SandboxEnvironment.process(kind: kind, directory: directory, client: environment)
    }

    /// The pids of the processes this sandbox started that are still alive.
    public var processIDs: [Int32] {
        state.withLock { state in
            state.children.filter(\.process.isRunning).map(\.process.pid)
        }
    }

    /// A sandbox released without ``stop()`` kills its processes (no waiting) and deletes
    /// its directory.
    deinit {
        let leftovers: [ChildProcess]? = state.withLock { state in
            guard case .running = state.lifecycle else { return nil }
            return state.children.map(\.process)
        }
        guard let leftovers else { return }
        for process in leftovers {
            process.signal(SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
