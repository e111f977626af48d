import FoundationEssentials

/// What a sandbox keeps for a failure it cannot show afterwards: its folder is deleted when it
/// stops, and the cause of a default that never reaches a connection is in pipewire-pulse's
/// and WirePlumber's state at that moment (Docs/Reliability.md).
enum SandboxDiagnostics {
    /// The variable naming the folder that kept diagnostics go into; `0` keeps none.
    static let folderVariable = "ROUTEKIT_SANDBOX_DIAGNOSTICS"

    /// Variables of the test process passed on to one daemon as its own debug setting:
    /// `ROUTEKIT_SANDBOX_PIPEWIRE_PULSE_DEBUG` becomes pipewire-pulse's `PIPEWIRE_DEBUG`, and
    /// `ROUTEKIT_SANDBOX_WIREPLUMBER_DEBUG` WirePlumber's `WIREPLUMBER_DEBUG` (nothing else
    /// of the test's environment reaches a daemon).
    static func debugEnvironment(for daemon: SandboxDaemon, from environment: [String: String]) -> [String: String] {
        switch daemon {
        case .pipewirePulse:
            environment["ROUTEKIT_SANDBOX_PIPEWIRE_PULSE_DEBUG"].map { ["PIPEWIRE_DEBUG": $0] } ?? [:]
        case .wireplumber:
            environment["ROUTEKIT_SANDBOX_WIREPLUMBER_DEBUG"].map { ["WIREPLUMBER_DEBUG": $0] } ?? [:]
        case .sessionBus, .pipewire, .pulseaudio:
            [:]
        }
    }

    /// The folder that diagnostics of the sandbox in `directory` go into, or nil when they
    /// are not kept: under `ROUTEKIT_SANDBOX_DIAGNOSTICS`, else `/tmp/routekit-diagnostics`.
    static func folder(for directory: String, kind: SoundServerKind, environment: [String: String]) -> String? {
        let root = environment[folderVariable] ?? "/tmp/routekit-diagnostics"
        guard root != "0", !root.isEmpty else { return nil }
        let name = directory.split(separator: "/").last.map(String.init) ?? "sandbox"
        return root + "/" + kind.rawValue + "-" + name
    }

    /// The commands whose output is kept, each as (file name, command line after the tool):
    /// what a client connecting now sees (the streams in full: their sink, mute and cork,
    /// against what a long-lived connection read), and, on PipeWire, the "default" metadata that
    /// WirePlumber writes and pipewire-pulse reads, and the whole graph (`pw-dump`).
    static func snapshots(for kind: SoundServerKind) -> [(file: String, tool: Tool, arguments: [String])] {
        var snapshots: [(file: String, tool: Tool, arguments: [String])] = [
            ("fresh-client-info.txt", .pactl, ["info"]),
            ("fresh-client-sinks.txt", .pactl, ["list", "short", "sinks"]),
            ("fresh-client-sources.txt", .pactl, ["list", "short", "sources"]),
            ("fresh-client-clients.txt", .pactl, ["list", "short", "clients"]),
            ("fresh-client-sink-inputs.txt", .pactl, ["list", "sink-inputs"]),
            ("fresh-client-source-outputs.txt", .pactl, ["list", "source-outputs"]),
        ]
        if kind == .pipewire {
            snapshots.append(("default-metadata.txt", .pwMetadata, ["-n", "default"]))
            snapshots.append(("settings-metadata.txt", .pwMetadata, ["-n", "settings"]))
            // Every object of the graph: how many "default" metadata there are, and each
            // pipewire-pulse client's own connection.
            snapshots.append(("graph.json", .pwDump, []))
        }
        return snapshots
    }

    /// A program a snapshot runs.
    enum Tool {
        case pactl
        case pwMetadata
        case pwDump
    }
}
