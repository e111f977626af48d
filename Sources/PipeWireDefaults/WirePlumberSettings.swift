import FoundationEssentials
import ProcessRunner
import RouteKit

/// WirePlumber 0.5's run-time settings: the `sm-settings` metadata (subject 0, SPA JSON
/// values), read and written with `pw-metadata` as ``PipeWireConfiguredDefaults`` runs it.
///
/// WirePlumber reads its settings from this metadata and tells the scripts that subscribed to
/// a setting when its value changes (`Settings.subscribe`); a value written here lasts until
/// WirePlumber restarts (it saves only `persistent-sm-settings`, which this never touches).
/// WirePlumber 0.4 has no such metadata: reads then fail with
/// ``PipeWireConfiguredDefaults/Failure/noMetadata``.
package struct WirePlumberSettings: Sendable {
    /// The metadata WirePlumber keeps its current settings in.
    static let metadataName = "sm-settings"
    /// How `pw-metadata` is run: its environment (which PipeWire), time limit and path.
    package var tool: PipeWireConfiguredDefaults

    /// Settings reached by running `pw-metadata` as `tool` does.
    package init(tool: PipeWireConfiguredDefaults) {
        self.tool = tool
    }

    /// The value of `key` as written (SPA JSON text, such as `false`); nil when the metadata
    /// has no such key. Throws ``PipeWireConfiguredDefaults/Failure/noMetadata`` when there is
    /// no `sm-settings` metadata (WirePlumber 0.4, or none running).
    package func value(of key: String) async throws -> String? {
        let environment = tool.environment ?? ProcessInfo.processInfo.environment
        let path = try PipeWireConfiguredDefaults.locate(tool.executable, in: environment)
        let run = try await PipeWireConfiguredDefaults.run([path, "-n", Self.metadataName, "0"], environment: environment,
                                                           timeout: tool.timeout)
        return try Self.value(of: key, in: run.standardOutput)
    }

    /// Writes `value` (SPA JSON text) for `key`, or removes the key for nil.
    package func set(_ key: String, to value: String?) async throws {
        let environment = tool.environment ?? ProcessInfo.processInfo.environment
        let path = try PipeWireConfiguredDefaults.locate(tool.executable, in: environment)
        let arguments = value.map { ["-n", Self.metadataName, "0", key, $0, "Spa:String:JSON"] }
            ?? ["-d", "-n", Self.metadataName, "0", key]
        _ = try await PipeWireConfiguredDefaults.run([path] + arguments, environment: environment, timeout: tool.timeout)
    }

    /// The value of `key` for subject 0 in `pw-metadata -n sm-settings 0`'s output; nil when
    /// absent. Throws ``PipeWireConfiguredDefaults/Failure/noMetadata`` for output without its
    /// `Found "sm-settings" metadata` line, and `unparseable` for an update line out of shape.
    package static func value(of key: String, in output: String) throws(PipeWireConfiguredDefaults.Failure) -> String? {
        var found = false
        var value: String?
        for rawLine in output.split(whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.hasPrefix("Found \"\(metadataName)\"") {
                found = true
            } else if line.hasPrefix("update:") {
                let update = try MetadataUpdate(line: line)
                if update.subject == 0, update.key == key { value = update.value }
            }
        }
        guard found else { throw .noMetadata }
        return value
    }
}
