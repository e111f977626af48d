/// Why a configuration file was refused: where (the file, and the line when it is known),
/// which key, and what is wrong, so that a person can go straight to it:
///
/// ```
/// /home/me/.config/routekit/routekit.toml:7: automatic.hold-off: "2 seconds" is not a duration; write it as "500ms" or "2s"
/// ```
package struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// The line (from 1), when it is known.
    package var line: Int?
    /// The key, dotted (`automatic.hold-off`), when the problem is one key's.
    package var key: String?
    /// What is wrong, and what to write instead.
    package var message: String

    /// `path:line: key: message`.
    package var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
