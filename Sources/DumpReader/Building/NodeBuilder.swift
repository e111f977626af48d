import PulseAudio

/// A PipeWire node as a dump shows it: its properties and what the format adds around them.
struct DumpNode: Sendable {
    /// The node's global id (`id 41`, `"id": 41`), when shown.
    var id: UInt32?
    /// Its property list, values as strings.
    var properties: [String: String]
    /// A name shown outside the properties (Quickshell's `name`).
    var name: String?
    /// A description shown outside the properties.
    var description: String?
    /// Its state (`running`, `idle`, `suspended`), when shown.
    var state: String?
    /// Whether it is muted, when shown.
    var isMuted: Bool?
    /// Its volume, when shown.
    var volume: ChannelVolumes?
}

/// What a node becomes.
enum NodeValue: Sendable {
    case sink(SinkInfo)
    case source(SourceInfo)
    /// Neither sink nor source (a driver, the MIDI bridge, a stream), or a node whose
    /// `node.name` the paste does not show: its property list.
    case other([String: String])
}

/// Turns PipeWire nodes into sinks and sources by `media.class`: `Audio/Sink*` is a sink,
/// `Audio/Source*` (`Audio/Source/Virtual` included) a source, anything else another node.
enum NodeBuilder {
    /// The value `node` becomes.
    static func build(_ node: DumpNode) -> NodeValue {
        var properties = node.properties
        let index = node.id ?? properties["object.id"].flatMap { UInt32($0) } ?? ServerDump.unknownIndex
        if properties["object.id"] == nil, let id = node.id {
            properties["object.id"] = String(id)
        }
        let mediaClass = properties["media.class"] ?? ""
        guard let name = properties["node.name"] ?? node.name, !name.isEmpty,
              mediaClass.hasPrefix("Audio/Sink") || mediaClass.hasPrefix("Audio/Source") else {
            return .other(properties)
        }
        let description = properties["node.description"] ?? properties["device.description"] ?? node.description
            ?? properties["node.nick"] ?? properties["media.name"] ?? name
        let card = properties["device.id"].flatMap { UInt32($0) }
        let volume = node.volume ?? ChannelVolumes([])
        let state = DumpValues.state(node.state)
        if mediaClass.hasPrefix("Audio/Sink") {
            return .sink(SinkInfo(index: index, name: name, description: description, driver: "PipeWire",
                                  ownerModule: nil, card: card, isMuted: node.isMuted ?? false, volume: volume,
                                  baseVolume: ChannelVolumes.normal, monitorSourceName: nil, state: state,
                                  ports: [], activePortName: nil, properties: properties))
        }
        return .source(SourceInfo(index: index, name: name, description: description, driver: "PipeWire",
                                  ownerModule: nil, card: card, isMuted: node.isMuted ?? false, volume: volume,
                                  baseVolume: ChannelVolumes.normal, monitorOfSinkName: nil, state: state,
                                  ports: [], activePortName: nil, properties: properties))
    }
}
