import FoundationEssentials
import RouteKit

/// What the daemon keeps across restarts, in `$XDG_STATE_HOME/routekit/state.json`
/// (`~/.local/state/routekit/state.json`): the preferences set at run time with
/// `routectl prefer`. Written atomically and readable by the user alone (``AtomicFile``); a
/// file that cannot be read as one is reported and left out, never fatal.
package struct StateFile: Sendable {
    /// The file's path.
    package let path: String

    /// The file under the state directory the environment names; nil when neither
    /// `XDG_STATE_HOME` nor `HOME` says where that is.
    package static func standard(environment: [String: String]) -> StateFile? {
        XDGDirectory.state.path(environment: environment).map { StateFile(path: $0 + "/routekit/state.json") }
    }

    /// What the file holds.
    package struct Contents: Codable, Equatable, Sendable {
        /// The file's format; only 1 so far.
        var version = 1
        /// The preferences set at run time, as written (`bluetooth`, or a device id); nil
        /// when none are (the configured ones apply).
        package var preferences: [String]?
    }

    /// What reading found.
    package enum Reading: Equatable, Sendable {
        /// No file: nothing was set at run time yet.
        case absent
        /// The file, read and checked.
        case read(Contents)
        /// A file that cannot be used, and why: it is left out (and overwritten by the next change).
        case unusable(String)
    }

    /// Reads and checks the file.
    package func read() -> Reading {
        let text: String
        do {
            text = try SmallTextFile.read(atPath: path)
        } catch .missing {
            return .absent
        } catch {
            return .unusable("\(error)")
        }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(text.utf8))
        } catch {
            return .unusable("not the state file's JSON (\(Self.describe(error)))")
        }
        guard contents.version == 1 else { return .unusable("format version \(contents.version), this routectl reads 1") }
        for entry in contents.preferences ?? [] {
            do { _ = try PreferenceText.read(entry) } catch {
                return .unusable("preference \"\(entry)\": " + PreferenceText.message(error) { "\"\($0)\"" })
            }
        }
        return .read(contents)
    }

    /// The preferences set at run time, as entries; nil when none are.
    package static func preferences(in contents: Contents) -> [AudioPreference]? {
        contents.preferences.map { entries in entries.compactMap { try? PreferenceText.read($0) } }
    }

    /// Replaces the file with `contents`, atomically; leaves it as it was, and throws, when
    /// the next start would refuse what would be written (an entry it cannot read, or more
    /// than ``SmallTextFile/limit`` bytes).
    package func write(_ contents: Contents) throws(AtomicFile.Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(contents)) ?? Data("{\"version\":1}".utf8)
        for entry in contents.preferences ?? [] {
            do { _ = try PreferenceText.read(entry) } catch {
                throw AtomicFile.Failure(operation: "write \(path)", reason: "the next start could not read the entry \"\(entry.prefix(40))\"")
            }
        }
        guard data.count < SmallTextFile.limit else {
            throw AtomicFile.Failure(operation: "write \(path)",
                                     reason: "\(data.count) bytes, more than the next start reads (\(SmallTextFile.limit))")
        }
        try AtomicFile.write(Array(data) + [0x0A], toPath: path)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: context.debugDescription
        case .keyNotFound(let key, _)?: "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
