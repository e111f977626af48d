import FoundationEssentials
import PipeWireDefaults
import RouteKit

/// Which PipeWire `routectl daemon` reads the user's configured defaults from, so that
/// stopping puts back exactly what the user had configured (``PipeWireConfiguredDefaults``).
///
/// `pw-metadata` finds PipeWire through its environment, not through the pulse server
/// routectl talks to; the two must be the same server, or stopping would "restore" another
/// machine's or another session's choice. So:
/// - no server named anywhere: this session's PipeWire, from this process's environment;
/// - a server socket `DIR/pulse/native` (where pipewire-pulse puts it) with PipeWire's own
///   socket `DIR/pipewire-0` beside it: that PipeWire, through `PIPEWIRE_RUNTIME_DIR=DIR`;
/// - anything else (TCP, a PulseAudio socket): none; stopping then restores the defaults that
///   were in use at start. The manager only asks when the server turns out to be PipeWire.
package enum ConfiguredDefaultsSource {
    /// The reader for `server` (`--server`, else `PULSE_SERVER`), or nil.
    package static func reader(server: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> PipeWireConfiguredDefaults? {
        let named = server ?? environment["PULSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let named else { return PipeWireConfiguredDefaults() }
        guard let directory = pipeWireDirectory(serving: named) else { return nil }
        var readerEnvironment = environment
        readerEnvironment["PIPEWIRE_RUNTIME_DIR"] = directory
        readerEnvironment["PIPEWIRE_REMOTE"] = nil
        return PipeWireConfiguredDefaults(environment: readerEnvironment)
    }

    /// `DIR` for a socket `DIR/pulse/native` (written as a path or `unix:PATH`) when
    /// `DIR/pipewire-0` exists; nil otherwise.
    package static func pipeWireDirectory(serving server: String) -> String? {
        var path = server
        if path.hasPrefix("unix:") { path.removeFirst("unix:".count) }
        guard path.hasPrefix("/") else { return nil }
        let socket = URL(fileURLWithPath: path).standardizedFileURL
        guard socket.lastPathComponent == "native", socket.deletingLastPathComponent().lastPathComponent == "pulse" else {
            return nil
        }
        let directory = socket.deletingLastPathComponent().deletingLastPathComponent().path
        return FileManager.default.fileExists(atPath: directory + "/pipewire-0") ? directory : nil
    }
}
