import FoundationEssentials

/// pipewire-pulse's configuration for a sandbox: the system's own, without
/// `module-always-sink`.
///
/// That module keeps a null sink, `auto_null`, whenever there is no other sink: pipewire-pulse
/// creates it at start, WirePlumber makes it the default, and the first sink a test loads makes
/// pipewire-pulse destroy it again, while WirePlumber is still setting it up ("Object
/// activation aborted: proxy destroyed") and has to move the default on. Without it a PipeWire
/// sandbox starts with no sink at all, like a PulseAudio one (`-n`), and the first sink a test
/// loads is the only thing WirePlumber has to handle.
enum PipeWirePulseConfiguration {
    /// Where PipeWire installs it, the administrator's copy first.
    static let systemPaths = ["/etc/pipewire/pipewire-pulse.conf", "/usr/share/pipewire/pipewire-pulse.conf"]

    /// The first system configuration found, without its `module-always-sink` line; nil if
    /// there is none, or it does not load that module (then the system's stays in force).
    static func withoutFallbackSink(paths: [String] = systemPaths) -> String? {
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return removingFallbackSink(from: String(decoding: data, as: UTF8.self))
        }
        return nil
    }

    /// `configuration` without the `pulse.cmd` entry that loads `module-always-sink`; nil if
    /// it has none. (A configuration fragment cannot remove it: pipewire-pulse runs the
    /// `pulse.cmd` of every fragment besides the main file's.)
    static func removingFallbackSink(from configuration: String) -> String? {
        var removed = false
        let lines = configuration.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let code = line.drop { $0 == " " || $0 == "\t" }
            let loadsIt = !code.hasPrefix("#") && code.contains("load-module") && code.contains("module-always-sink")
            if loadsIt { removed = true }
            return !loadsIt
        }
        return removed ? lines.joined(separator: "\n") : nil
    }
}
