import PulseAudio

/// Reads `pactl --format=json` output (PulseAudio 16+): `list sinks`, `list sources`,
/// `list cards` and `info`.
enum PactlJSON {
    /// Adds `object` to `dump` when it is a `pactl` sink, source, card or server info; whether it was.
    static func read(_ object: JSONValue, into dump: inout ServerDump) -> Bool {
        if let sink = object["default_sink_name"] {
            dump.defaultSinkName = sink.string ?? dump.defaultSinkName
            dump.defaultSourceName = object["default_source_name"]?.string ?? dump.defaultSourceName
            return true
        }
        guard let name = object["name"]?.string, object["properties"]?.members != nil else { return false }
        if let profiles = object["profiles"]?.members {
            dump.cards.append(card(object, name: name, profiles: profiles))
            return true
        }
        guard object["base_volume"] != nil || object["monitor_source"] != nil else { return false }
        let properties = PipeWireObjects.properties(object["properties"] ?? .null)
        let monitor = object["monitor_source"]?.string
        let ports = (object["ports"]?.array ?? []).compactMap(port)
        let index = object["index"]?.integer.flatMap { UInt32(exactly: $0) } ?? ServerDump.unknownIndex
        let volume = ChannelVolumes((object["volume"]?.members ?? []).compactMap {
            $0.value["value"]?.integer.flatMap { UInt32(exactly: $0) }
        })
        let baseVolume = object["base_volume"]?["value"]?.integer.flatMap { UInt32(exactly: $0) } ?? ChannelVolumes.normal
        let ownerModule = DumpValues.index(object["owner_module"]?.propertyValue)
        let description = object["description"]?.string ?? properties["device.description"] ?? ""
        let driver = object["driver"]?.string ?? ""
        let isMuted = object["mute"]?.bool ?? false
        let state = DumpValues.state(object["state"]?.string)
        let activePort = object["active_port"]?.string
        if isSink(name: name, monitor: monitor, properties: properties) {
            dump.sinks.append(SinkInfo(index: index, name: name, description: description, driver: driver,
                                       ownerModule: ownerModule, card: nil, isMuted: isMuted, volume: volume,
                                       baseVolume: baseVolume, monitorSourceName: monitor, state: state,
                                       ports: ports, activePortName: activePort, properties: properties))
        } else {
            dump.sources.append(SourceInfo(index: index, name: name, description: description, driver: driver,
                                           ownerModule: ownerModule, card: nil, isMuted: isMuted, volume: volume,
                                           baseVolume: baseVolume, monitorOfSinkName: monitor, state: state,
                                           ports: ports, activePortName: activePort, properties: properties))
        }
        return true
    }

    /// Sinks and sources share one shape (a source's `monitor_source` is the sink it monitors):
    /// the properties tell them apart, else the monitor's name.
    private static func isSink(name: String, monitor: String?, properties: [String: String]) -> Bool {
        if properties["device.class"] == "monitor" { return false }
        if let mediaClass = properties["media.class"] {
            if mediaClass.hasPrefix("Audio/Sink") { return true }
            if mediaClass.hasPrefix("Audio/Source") { return false }
        }
        guard let monitor else { return false }
        return monitor == name + ".monitor" || !name.hasSuffix(".monitor")
    }

    private static func port(_ port: JSONValue) -> DevicePort? {
        guard let name = port["name"]?.string else { return nil }
        return DevicePort(name: name, description: port["description"]?.string ?? "",
                          priority: port["priority"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0,
                          availability: port["availability"]?.string.flatMap { PactlVocabulary.availability($0) } ?? .unknown,
                          type: port["type"]?.string.flatMap { PactlVocabulary.portType($0) } ?? .unknown,
                          availabilityGroup: port["availability_group"]?.string)
    }

    private static func card(_ object: JSONValue, name: String, profiles: [JSONMember]) -> CardInfo {
        let profileValues = profiles.map { member in
            CardInfo.Profile(name: member.key, description: member.value["description"]?.string ?? member.key,
                             sinkCount: member.value["sinks"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0,
                             sourceCount: member.value["sources"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0,
                             priority: member.value["priority"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0,
                             isAvailable: member.value["available"]?.bool ?? true)
        }
        let ports = (object["ports"]?.members ?? []).map { member in
            let entry = RawEntry(name: member.key, description: member.value["description"]?.string ?? "",
                                 properties: PipeWireObjects.properties(member.value["properties"] ?? .null),
                                 profileNames: (member.value["profiles"]?.array ?? []).compactMap(\.string), line: 0)
            var port = EntryValues.cardPort(entry)
            port.priority = member.value["priority"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0
            port.availability = member.value["availability"]?.string.flatMap { PactlVocabulary.availability($0) } ?? .unknown
            port.type = member.value["type"]?.string.flatMap { PactlVocabulary.portType($0) } ?? port.type
            port.availabilityGroup = member.value["availability_group"]?.string ?? port.availabilityGroup
            port.latencyOffset = member.value["latency_offset"]?.propertyValue.flatMap { EntryAttributes.leadingNumber($0) } ?? 0
            return port
        }
        return CardInfo(index: object["index"]?.integer.flatMap { UInt32(exactly: $0) } ?? ServerDump.unknownIndex,
                        name: name, driver: object["driver"]?.string ?? "",
                        ownerModule: DumpValues.index(object["owner_module"]?.propertyValue), profiles: profileValues,
                        activeProfileName: object["active_profile"]?.string, ports: ports,
                        properties: PipeWireObjects.properties(object["properties"] ?? .null))
    }
}
