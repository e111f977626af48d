import ArgumentParser
import RouteKit
import RouteKitDaemon

/// `routectl daemon`'s configuration options: the file, and the scope over it.
struct DaemonConfigurationOptions: ParsableArguments {
    /// The configuration file.
    @Option(name: .long, help: ArgumentHelp(
        "The configuration file. Default: $XDG_CONFIG_HOME/routekit/routekit.toml (~/.config/routekit/routekit.toml), used when it exists.",
        valueName: "file"))
    var config: String?

    /// `--scope`.
    @Option(name: .long, help: ArgumentHelp(
        "system: the default sink and source, and the streams that follow them; application: only the streams --match selects.",
        valueName: "system|application"))
    var scope: DaemonScopeChoice?

    /// `--match`, repeated.
    @Option(name: .long, help: ArgumentHelp(
        "A stream property a stream must have to be routed in application scope, such as media.role=phone. Repeat it: a stream must have them all. Implies --scope application.",
        valueName: "key=value"))
    var match: [String] = []

    /// Refuses a malformed `--match` or one beside `--scope system` (exit 64).
    func validate() throws {
        _ = try properties()
        if scope == .system, !match.isEmpty {
            throw ValidationError("--match selects streams for --scope application; --scope system routes them all.")
        }
    }

    /// The `--match` pairs.
    func properties() throws -> [String: String] {
        var properties: [String: String] = [:]
        for pair in match {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--match \(pair): write it as key=value, such as --match media.role=phone.")
            }
            properties[String(parts[0])] = String(parts[1])
        }
        return properties
    }
}

extension DaemonScopeChoice: ExpressibleByArgument {}
