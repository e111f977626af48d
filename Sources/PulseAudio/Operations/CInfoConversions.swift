import CPulseAudio

// Copies of libpulse's `pa_*_info` structs into Swift values. libpulse owns those structs
// only for the duration of a callback, so each callback converts at once, with these.

/// A C string as a Swift string, nil for NULL.
func swiftString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// `PA_INVALID_INDEX` as nil.
func validIndex(_ index: UInt32) -> UInt32? {
    index == UInt32.max ? nil : index  // PA_INVALID_INDEX
}

/// Every string-valued entry of a property list (binary values are left out).
func propertyDictionary(_ list: OpaquePointer?) -> [String: String] {
    guard let list else { return [:] }
    var result: [String: String] = [:]
    var state: UnsafeMutableRawPointer? = nil
    while let key = pa_proplist_iterate(list, &state) {
        if let value = pa_proplist_gets(list, key) {
            result[String(cString: key)] = String(cString: value)
        }
    }
    return result
}

/// The elements of a NULL-free C array of `count` pointers.
func pointees<T>(_ array: UnsafeMutablePointer<UnsafeMutablePointer<T>?>?, count: Int) -> [T] {
    guard let array, count > 0 else { return [] }
    return (0..<count).compactMap { array[$0]?.pointee }
}

extension DevicePort {
    init(_ port: pa_sink_port_info) {
        self.init(name: swiftString(port.name) ?? "", description: swiftString(port.description) ?? "",
                  priority: port.priority, availability: PortAvailability(port.available),
                  type: DevicePortType(rawValue: port.type), availabilityGroup: swiftString(port.availability_group))
    }

    init(_ port: pa_source_port_info) {
        self.init(name: swiftString(port.name) ?? "", description: swiftString(port.description) ?? "",
                  priority: port.priority, availability: PortAvailability(port.available),
                  type: DevicePortType(rawValue: port.type), availabilityGroup: swiftString(port.availability_group))
    }
}

extension ServerInfo {
    init(_ info: pa_server_info) {
        self.init(serverName: swiftString(info.server_name) ?? "", serverVersion: swiftString(info.server_version) ?? "",
                  userName: swiftString(info.user_name) ?? "", hostName: swiftString(info.host_name) ?? "",
                  defaultSinkName: deviceName(info.default_sink_name),
                  defaultSourceName: deviceName(info.default_source_name), cookie: info.cookie)
    }
}

extension SinkInfo {
    init(_ info: pa_sink_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", description: swiftString(info.description) ?? "",
                  driver: swiftString(info.driver) ?? "", ownerModule: validIndex(info.owner_module),
                  card: validIndex(info.card), isMuted: info.mute != 0, volume: ChannelVolumes(info.volume),
                  baseVolume: info.base_volume, monitorSourceName: swiftString(info.monitor_source_name),
                  state: DeviceState(info.state.rawValue),
                  ports: pointees(info.ports, count: Int(info.n_ports)).map(DevicePort.init),
                  activePortName: swiftString(info.active_port?.pointee.name),
                  properties: propertyDictionary(info.proplist))
    }
}

extension SourceInfo {
    init(_ info: pa_source_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", description: swiftString(info.description) ?? "",
                  driver: swiftString(info.driver) ?? "", ownerModule: validIndex(info.owner_module),
                  card: validIndex(info.card), isMuted: info.mute != 0, volume: ChannelVolumes(info.volume),
                  baseVolume: info.base_volume,
                  monitorOfSinkName: validIndex(info.monitor_of_sink) == nil ? nil : swiftString(info.monitor_of_sink_name),
                  state: DeviceState(info.state.rawValue),
                  ports: pointees(info.ports, count: Int(info.n_ports)).map(DevicePort.init),
                  activePortName: swiftString(info.active_port?.pointee.name),
                  properties: propertyDictionary(info.proplist))
    }
}

extension CardInfo.Profile {
    init(_ profile: pa_card_profile_info2) {
        self.init(name: swiftString(profile.name) ?? "", description: swiftString(profile.description) ?? "",
                  sinkCount: profile.n_sinks, sourceCount: profile.n_sources, priority: profile.priority,
                  isAvailable: profile.available != 0)
    }
}

extension CardInfo.Port {
    init(_ port: pa_card_port_info) {
        var profileNames: [String] = []
        if let profiles = port.profiles2 {
            var position = 0
            while let profile = profiles[position] {
                if let name = swiftString(profile.pointee.name) { profileNames.append(name) }
                position += 1
            }
        }
        self.init(name: swiftString(port.name) ?? "", description: swiftString(port.description) ?? "",
                  priority: port.priority, availability: PortAvailability(port.available),
                  type: DevicePortType(rawValue: port.type), availabilityGroup: swiftString(port.availability_group),
                  direction: CardInfo.Direction(rawValue: port.direction), profileNames: profileNames,
                  properties: propertyDictionary(port.proplist), latencyOffset: port.latency_offset)
    }
}

extension CardInfo {
    init(_ info: pa_card_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", driver: swiftString(info.driver) ?? "",
                  ownerModule: validIndex(info.owner_module),
                  profiles: pointees(info.profiles2, count: Int(info.n_profiles)).map(CardInfo.Profile.init),
                  activeProfileName: swiftString(info.active_profile2?.pointee.name),
                  ports: pointees(info.ports, count: Int(info.n_ports)).map(CardInfo.Port.init),
                  properties: propertyDictionary(info.proplist))
    }
}

extension SinkInputInfo {
    init(_ info: pa_sink_input_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", client: validIndex(info.client),
                  ownerModule: validIndex(info.owner_module), sink: info.sink, volume: ChannelVolumes(info.volume),
                  isMuted: info.mute != 0, isCorked: info.corked != 0, properties: propertyDictionary(info.proplist))
    }
}

extension SourceOutputInfo {
    init(_ info: pa_source_output_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", client: validIndex(info.client),
                  ownerModule: validIndex(info.owner_module), source: info.source, volume: ChannelVolumes(info.volume),
                  isMuted: info.mute != 0, isCorked: info.corked != 0, properties: propertyDictionary(info.proplist))
    }
}

extension ClientInfo {
    init(_ info: pa_client_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", driver: swiftString(info.driver) ?? "",
                  ownerModule: validIndex(info.owner_module), properties: propertyDictionary(info.proplist))
    }
}

extension ModuleInfo {
    init(_ info: pa_module_info) {
        self.init(index: info.index, name: swiftString(info.name) ?? "", argument: swiftString(info.argument) ?? "",
                  properties: propertyDictionary(info.proplist))
    }
}

/// A default device's name, nil when there is none: pipewire-pulse then answers with the
/// placeholder `@DEFAULT_SINK@` or `@DEFAULT_SOURCE@` (or `@DEFAULT_MONITOR@`) instead of NULL.
private func deviceName(_ text: UnsafePointer<CChar>?) -> String? {
    guard let name = swiftString(text), !(name.hasPrefix("@DEFAULT_") && name.hasSuffix("@")) else { return nil }
    return name
}
