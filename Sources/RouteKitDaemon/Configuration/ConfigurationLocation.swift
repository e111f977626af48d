/// Where `routectl daemon` reads its configuration: `--config FILE`, else
/// `$XDG_CONFIG_HOME/routekit/routekit.toml` (`~/.config/routekit/routekit.toml`). The file
/// named with `--config` must be there; the default one may be absent, and the defaults and
/// the command line then stand.
package struct ConfigurationLocation: Equatable, Sendable {
    /// The file's path.
    package var path: String
    /// Whether it was named with `--config` (and so must exist).
    package var isExplicit: Bool

    /// The file's name under the configuration directory.
    package static let defaultRelativePath = "routekit/routekit.toml"

    /// `--config`'s file, else the default one; nil when there is no `--config` and neither
    /// `XDG_CONFIG_HOME` nor `HOME` says where the default would be.
    package static func resolve(option: String?, environment: [String: String]) -> ConfigurationLocation? {
        if let option { return ConfigurationLocation(path: option, isExplicit: true) }
        guard let directory = XDGDirectory.config.path(environment: environment) else { return nil }
        return ConfigurationLocation(path: directory + "/" + defaultRelativePath, isExplicit: false)
    }

    /// Why the configuration could not be had.
    package enum Failure: Error, Equatable {
        /// The file could not be read (exit 66).
        case unreadable(path: String, SmallTextFile.Failure)
        /// The file says something wrong (exit 78).
        case invalid(ConfigurationError)
    }

    /// The configuration the file sets; nil when the default file is absent.
    package func load() throws(Failure) -> DaemonConfiguration? {
        let text: String
        do {
            text = try SmallTextFile.read(atPath: path)
        } catch .missing where !isExplicit {
            return nil
        } catch {
            throw .unreadable(path: path, error)
        }
        do {
            return try ConfigurationFile.parse(text, path: path)
        } catch {
            throw .invalid(error)
        }
    }
}
