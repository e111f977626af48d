import MediaControl
import RouteKit
import TOMLKit
import TextSupport

/// `routectl daemon`'s configuration file, in TOML (Configs/routekit.toml is the documented
/// default; Docs/Configuration.md describes every key):
///
/// ```toml
/// preferences = ["bluetooth", "speakerphone"]
/// scope = "system"
///
/// [automatic]
/// never = ["bluez_card.00_11_22_33_44_55"]
/// hold-off = "2s"
/// ```
///
/// TOMLKit parses the text; this reads the keys into a ``DaemonConfiguration`` and refuses,
/// naming the line and the key, a key it does not know, a value of the wrong type, and a
/// value that would silently do nothing (a misspelled kind, `scope = "application"` without
/// `[match]`). Pure: text in, a value or a ``ConfigurationError`` out.
package enum ConfigurationFile {
    /// The keys at the top of the file.
    package static let keys = ["preferences", "scope", "match", "automatic", "media", "calls"]
    /// The keys of `[automatic]`.
    package static let automaticKeys = ["never", "only", "hold-off"]
    /// The keys of `[media]`.
    package static let mediaKeys = ["pause-on-unplug", "private-kinds", "resume-within", "hold-during-calls"]
    /// The most dotted parts a key may have, its table's included: far beyond any real key.
    package static let maximumKeyParts = 16
    /// The keys of `[calls]`.
    package static let callKeys = ["preferences", "detect", "detect-roles", "detect-applications", "ringing", "ring-roles", "ring-applications"]

    /// The configuration `text` (read from `path`, named in errors) sets; what it leaves out
    /// keeps its default.
    package static func parse(_ text: String, path: String) throws(ConfigurationError) -> DaemonConfiguration {
        // TOMLKit hands the text to C as a C string: a NUL would end the file there, silently.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count { $0 == UInt8(ascii: "\n") } + 1
            throw ConfigurationError(path: path, line: line, message: "a NUL byte: this is not a text file")
        }
        if let problem = TOMLTextCheck.problem(in: text) {
            throw ConfigurationError(path: path, line: problem.line, message: problem.message)
        }
        let lines = TOMLKeyLines(text)
        // Every key here is at most three parts deep ([match] media.role); a key thousands deep
        // would nest as many tables, which the C++ parser frees recursively.
        if lines.deepest.parts > maximumKeyParts {
            throw ConfigurationError(path: path, line: lines.deepest.line,
                                     message: "a key \(lines.deepest.parts) parts deep; no key here has more than \(maximumKeyParts)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            throw ConfigurationError(path: path, line: line, key: lines.key(onLine: line), message: error.description)
        } catch {
            throw ConfigurationError(path: path, message: "\(error)")
        }
        let reader = KeyReader(path: path, lines: lines)
        return try reader.configuration(from: table)
    }
}

/// Reads the parsed table's keys, naming each key's line in what it throws.
private struct KeyReader {
    package let path: String
    package let lines: TOMLKeyLines

    package func configuration(from table: TOMLTable) throws(ConfigurationError) -> DaemonConfiguration {
        try refuseUnknownKeys(in: table, at: [], known: ConfigurationFile.keys)
        var configuration = DaemonConfiguration()
        if let value = table["preferences"] {
            configuration.preferences = try preferences(value, at: ["preferences"], example: #"["bluetooth", "speakerphone"]"#)
        }
        let match = try table["match"].map { value throws(ConfigurationError) in try properties(value, at: ["match"]) }
        let scopeName = try table["scope"].map { value throws(ConfigurationError) in try string(value, at: ["scope"]) }
        configuration.scope = try scope(named: scopeName, match: match)
        if let value = table["automatic"] {
            configuration.automatic = try automatic(value)
        }
        if let value = table["media"] {
            configuration.media = try media(value)
        }
        if let value = table["calls"] {
            configuration.calls = try calls(value)
        }
        return configuration
    }

    // MARK: Keys

    private func scope(named name: String?, match: [String: String]?) throws(ConfigurationError) -> RouteScope {
        switch name {
        case "system"?:
            if match != nil {
                throw error(at: ["match"], #"applies to scope = "application" only; set scope = "application", or remove [match]"#)
            }
            return .system
        case "application"?:
            guard let match, !match.isEmpty else {
                throw error(at: ["scope"], #"application scope needs [match] with a stream property, such as "media.role" = "phone""#)
            }
            return .application(StreamSelector(properties: match))
        case nil:
            // [match] alone means application scope, as --match alone does.
            guard let match else { return .system }
            guard !match.isEmpty else { throw error(at: ["match"], #"needs a stream property, such as "media.role" = "phone""#) }
            return .application(StreamSelector(properties: match))
        case let other?:
            let hint = Spelling.closest(to: other, among: ["system", "application"]).map { "did you mean \"\($0)\"? " } ?? ""
            throw error(at: ["scope"], "\"\(other)\" is not a scope; \(hint)write \"system\" or \"application\"")
        }
    }

    /// `[match]`: property names to values; nested tables (`media.role = "phone"` written
    /// unquoted) are joined back with dots, as PulseAudio names its properties.
    private func properties(_ value: any TOMLValueConvertible, at key: [String]) throws(ConfigurationError) -> [String: String] {
        guard let table = value.table else {
            throw error(at: key, #"must be a table of stream properties, such as [match] "media.role" = "phone"; found \#(describe(value))"#)
        }
        var properties: [String: String] = [:]
        for (name, entry) in table {
            let path = key + [name]
            if entry.table != nil {
                for (inner, text) in try self.properties(entry, at: path) { properties[name + "." + inner] = text }
                continue
            }
            switch entry.type {
            case .string: properties[name] = entry.string
            case .int: properties[name] = entry.int.map(String.init)
            case .bool: properties[name] = entry.bool.map(String.init)
            default: throw error(at: path, "a stream property's value must be text, such as \"phone\"; found \(describe(entry))")
            }
        }
        return properties
    }

    private func automatic(_ value: any TOMLValueConvertible) throws(ConfigurationError) -> AutomaticChoice {
        guard let table = value.table else {
            throw error(at: ["automatic"], "must be a table: [automatic] with never, only and hold-off; found \(describe(value))")
        }
        try refuseUnknownKeys(in: table, at: ["automatic"], known: ConfigurationFile.automaticKeys)
        var choice = AutomaticChoice()
        let example = #"["bluez_card.00_11_22_33_44_55"]"#
        if let never = table["never"] {
            choice.never = try strings(never, at: ["automatic", "never"], example: example).map { DeviceMatch($0) }
        }
        if let only = table["only"] {
            choice.only = try strings(only, at: ["automatic", "only"], example: example).map { DeviceMatch($0) }
        }
        if let holdOff = table["hold-off"] {
            choice.holdOff = try duration(holdOff, at: ["automatic", "hold-off"])
        }
        return choice
    }

    private func media(_ value: any TOMLValueConvertible) throws(ConfigurationError) -> MediaSettings {
        guard let table = value.table else {
            throw error(at: ["media"], "must be a table: [media] with \(ConfigurationFile.mediaKeys.joined(separator: ", ")); found \(describe(value))")
        }
        try refuseUnknownKeys(in: table, at: ["media"], known: ConfigurationFile.mediaKeys)
        var settings = MediaSettings()
        if let pause = table["pause-on-unplug"] { settings.pausesOnUnplug = try boolean(pause, at: ["media", "pause-on-unplug"]) }
        if let hold = table["hold-during-calls"] { settings.holdsMediaDuringCalls = try boolean(hold, at: ["media", "hold-during-calls"]) }
        if let kinds = table["private-kinds"] {
            let key = ["media", "private-kinds"]
            let names = try strings(kinds, at: key, example: #"["bluetooth", "wiredHeadset"]"#)
            var chosen: Set<AudioDeviceKind> = []
            for name in names {
                guard let kind = AudioDeviceKind(rawValue: name) else {
                    let known = AudioDeviceKind.allCases.map(\.rawValue)
                    let hint = Spelling.closest(to: name, among: known).map { "did you mean \"\($0)\"? " } ?? ""
                    throw error(at: key, "\"\(name)\" is not a kind; \(hint)the kinds are \(known.joined(separator: ", "))")
                }
                chosen.insert(kind)
            }
            settings.privateKinds = chosen
        }
        if let within = table["resume-within"] { settings.resumeWindow = try duration(within, at: ["media", "resume-within"]) }
        return settings
    }

    private func calls(_ value: any TOMLValueConvertible) throws(ConfigurationError) -> CallSettings {
        guard let table = value.table else {
            throw error(at: ["calls"], "must be a table: [calls] with \(ConfigurationFile.callKeys.joined(separator: ", ")); found \(describe(value))")
        }
        try refuseUnknownKeys(in: table, at: ["calls"], known: ConfigurationFile.callKeys)
        var settings = CallSettings()
        if let detect = table["detect"] { settings.detects = try boolean(detect, at: ["calls", "detect"]) }
        if let roles = table["detect-roles"] {
            settings.detection.roles = Set(try strings(roles, at: ["calls", "detect-roles"], example: #"["phone", "communication"]"#))
        }
        if let applications = table["detect-applications"] {
            let names = try strings(applications, at: ["calls", "detect-applications"], example: #"["linphone", "baresip"]"#)
            settings.detection.applicationNames = Set(names)
            settings.detection.processBinaries = Set(names)
        }
        if let value = table["preferences"] {
            settings.preferences = PreferenceList(try preferences(value, at: ["calls", "preferences"],
                                                                  example: #"["bluetooth", "wiredHeadset", "earpiece", "speakerphone"]"#))
        }
        if let value = table["ringing"] {
            let key = ["calls", "ringing"]
            let text = try string(value, at: key)
            guard let placement = RingingPlacement(rawValue: text) else {
                let known = RingingPlacement.allCases.map(\.rawValue)
                let hint = Spelling.closest(to: text, among: known).map { "did you mean \"\($0)\"? " } ?? ""
                throw error(at: key, "\"\(text)\" is not a ringing placement; \(hint)write \(known.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            settings.ringing = placement
        }
        if let roles = table["ring-roles"] {
            settings.ringRoles = Set(try strings(roles, at: ["calls", "ring-roles"], example: #"["event", "notification"]"#))
        }
        if let applications = table["ring-applications"] {
            settings.ringApplications = Set(try strings(applications, at: ["calls", "ring-applications"], example: #"["gnome-calls"]"#))
        }
        return settings
    }

    // MARK: Values

    /// A preference list: strings, each a kind or a device id, each refused with its reason.
    private func preferences(_ value: any TOMLValueConvertible, at key: [String], example: String) throws(ConfigurationError)
        -> [AudioPreference] {
        try strings(value, at: key, example: example).map { entry throws(ConfigurationError) in
            do throws(PreferenceText.Problem) {
                return try PreferenceText.read(entry)
            } catch {
                throw self.error(at: key, PreferenceText.message(error) { "\"\($0)\"" })
            }
        }
    }

    private func duration(_ value: any TOMLValueConvertible, at key: [String]) throws(ConfigurationError) -> Duration {
        let text: String
        switch value.type {
        case .string: text = value.string ?? ""
        case .int, .double: throw error(at: key, "write the duration with its unit, such as \"2s\" or \"500ms\"")
        default: throw error(at: key, "must be a duration, such as \"2s\" or \"500ms\"; found \(describe(value))")
        }
        guard let duration = DurationText.parse(text) else {
            throw error(at: key, "\"\(text)\" is not a duration from \"0s\" to \"600s\"; write it as \"500ms\" or \"2s\"")
        }
        return duration
    }

    private func boolean(_ value: any TOMLValueConvertible, at key: [String]) throws(ConfigurationError) -> Bool {
        guard value.type == .bool, let flag = value.bool else {
            throw error(at: key, "must be true or false; found \(describe(value))")
        }
        return flag
    }

    private func string(_ value: any TOMLValueConvertible, at key: [String]) throws(ConfigurationError) -> String {
        guard value.type == .string, let text = value.string else {
            throw error(at: key, "must be text in quotes; found \(describe(value))")
        }
        return text
    }

    private func strings(_ value: any TOMLValueConvertible, at key: [String], example: String) throws(ConfigurationError) -> [String] {
        guard let array = value.array else {
            throw error(at: key, "must be a list of strings, such as \(example); found \(describe(value))")
        }
        var texts: [String] = []
        for entry in array {
            guard entry.type == .string, let text = entry.string else {
                throw error(at: key, "must be a list of strings, such as \(example); found \(describe(entry)) in it")
            }
            texts.append(text)
        }
        return texts
    }

    private func refuseUnknownKeys(in table: TOMLTable, at path: [String], known: [String]) throws(ConfigurationError) {
        for key in table.keys where !known.contains(key) {
            let hint = Spelling.closest(to: key, among: known).map { "did you mean \($0)? " } ?? ""
            let place = path.isEmpty ? "" : " in [\(path.joined(separator: "."))]"
            throw error(at: path + [key], "unknown key\(place); \(hint)the keys are \(known.joined(separator: ", "))")
        }
    }

    // MARK: Errors

    private func error(at key: [String], _ message: String) -> ConfigurationError {
        ConfigurationError(path: path, line: lines.line(of: key), key: key.joined(separator: "."), message: message)
    }

    private func describe(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "text"
        case .array: "a list"
        case .table: "a table"
        case .int: "a whole number"
        case .double: "a number"
        case .bool: "true or false"
        default: "a date or time"
        }
    }
}
