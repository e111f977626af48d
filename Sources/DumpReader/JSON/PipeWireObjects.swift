import Glibc
import PulseAudio

/// Reads `pw-dump` nodes and the default metadata.
enum PipeWireObjects {
    /// A `pw-dump` node: `id`, `info.props`, `info.state`, and the volume and mute of its
    /// `Props` parameter (linear channel volumes, shown on PulseAudio's cubic scale).
    static func node(_ object: JSONValue) -> DumpNode {
        let info = object["info"]
        var node = DumpNode(id: object["id"]?.integer.flatMap { UInt32(exactly: $0) },
                            properties: info?["props"].map(properties) ?? [:], state: info?["state"]?.string)
        let props = info?["params"]?["Props"]?.array ?? []
        if let settings = props.first(where: { $0["channelVolumes"] != nil }) ?? props.first {
            node.isMuted = settings["mute"]?.bool
            if let volumes = settings["channelVolumes"]?.array?.compactMap(\.double), !volumes.isEmpty {
                node.volume = ChannelVolumes(volumes.map { linear in
                    UInt32((cbrt(max(linear, 0)) * Double(ChannelVolumes.normal)).rounded())
                })
            }
        }
        return node
    }

    /// The `default` metadata's `default.audio.sink`, `default.audio.source` and
    /// `default.configured.audio.sink` (values `{"name": ...}`, or that JSON as a string).
    static func readDefaults(_ object: JSONValue, into dump: inout ServerDump) {
        if let name = object["props"]?["metadata.name"]?.string, name != "default" {
            return
        }
        for entry in object["metadata"]?.array ?? [] {
            guard let key = entry["key"]?.string, let value = entry["value"] else { continue }
            if let subject = entry["subject"]?.integer, subject != 0 { continue }
            let name = defaultName(value)
            switch key {
            case "default.audio.sink": dump.defaultSinkName = name ?? dump.defaultSinkName
            case "default.audio.source": dump.defaultSourceName = name ?? dump.defaultSourceName
            case "default.configured.audio.sink": dump.configuredDefaultSinkName = name ?? dump.configuredDefaultSinkName
            default: break
            }
        }
    }

    /// A property object as strings (numbers as written, arrays and objects as JSON).
    static func properties(_ object: JSONValue) -> [String: String] {
        var result: [String: String] = [:]
        for member in object.members ?? [] {
            if let value = member.value.propertyValue {
                result[member.key] = value
            }
        }
        return result
    }

    /// The `name` of a metadata value.
    private static func defaultName(_ value: JSONValue) -> String? {
        if let name = value["name"]?.string {
            return name
        }
        guard let text = value.string else { return nil }
        var parser = LenientJSONParser(Array(text.utf8), at: 0)
        return parser.value()?["name"]?.string ?? text
    }
}
