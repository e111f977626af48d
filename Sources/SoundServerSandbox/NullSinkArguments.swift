/// The `pactl load-module` arguments for a null sink, quoted so that both PulseAudio and
/// pipewire-pulse parse them the same way.
///
/// The module argument is `sink_properties="key='value' …"`: double quotes around the property
/// list for the module-argument parser, single quotes around each value for the property-list
/// parser. The two servers disagree about backslashes (PulseAudio unescapes them, pipewire-pulse
/// keeps them), so values may contain spaces but no quote, backslash or control character.
enum NullSinkArguments {
    /// The arguments after `load-module`.
    static func make(name: String, properties: [String: String]) throws(SandboxError) -> [String] {
        try checkName(name, "sink")
        return ["module-null-sink", "sink_name=\(name)"] + (try propertyArgument("sink_properties", properties).map { [$0] } ?? [])
    }

    /// The arguments after `load-module` for a microphone: `module-pipe-source` reading the
    /// FIFO `file`.
    static func makeMicrophone(name: String, file: String, properties: [String: String]) throws(SandboxError) -> [String] {
        try checkName(name, "source")
        try checkName(file, "file")
        // A media name of its own: WirePlumber keeps a pipe source's mute by it, and every pipe
        // source would share "pipe" (one muted microphone would come back muted as another).
        var properties = properties
        properties["media.name"] = properties["media.name"] ?? name
        return ["module-pipe-source", "source_name=\(name)", "file=\(file)"]
            + (try propertyArgument("source_properties", properties).map { [$0] } ?? [])
    }

    private static func checkName(_ name: String, _ what: String) throws(SandboxError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isNameCharacter) else {
            throw SandboxError("invalid \(what) name \"\(name)\": it must be non-empty, without spaces, quotes, backslashes or control characters")
        }
    }

    /// `argument="key='value' …"`, nil for no properties.
    private static func propertyArgument(_ argument: String, _ properties: [String: String]) throws(SandboxError) -> String? {
        guard !properties.isEmpty else { return nil }
        var quoted: [String] = []
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty, key.unicodeScalars.allSatisfy(isKeyCharacter) else {
                throw SandboxError("invalid property key \"\(key)\": use letters, digits, '.', '_' and '-'")
            }
            guard value.unicodeScalars.allSatisfy(isValueCharacter) else {
                throw SandboxError("invalid value for \(key): \"\(value)\" contains a quote, backslash or control character")
            }
            quoted.append("\(key)='\(value)'")
        }
        return "\(argument)=\"\(quoted.joined(separator: " "))\""
    }

    private static func isValueCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "'" && scalar != "\"" && scalar != "\\" && scalar.properties.generalCategory != .control
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isValueCharacter(scalar) && !scalar.properties.isWhitespace
    }

    private static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
    }
}
