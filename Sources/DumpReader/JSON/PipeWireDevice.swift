import PulseAudio

/// A `pw-dump` audio device: a card, with its profiles (`EnumProfile`, `Profile`) and routes
/// (`EnumRoute`, `Route`), which are also the ports of its nodes.
struct PipeWireDevice: Sendable {
    /// One route: a port of the card and of the nodes whose profile devices it serves.
    struct Route: Sendable {
        var port: CardInfo.Port
        /// The `card.profile.device` numbers it serves.
        var profileDevices: [Int64]
    }

    /// The device's global id.
    var id: UInt32
    /// The card it is.
    var card: CardInfo
    /// Its routes, in order.
    var routes: [Route]
    /// The active route of each profile device.
    var activeRoutes: [Int64: String]

    /// The device `object` describes, nil when it is not an audio device.
    init?(_ object: JSONValue) {
        guard let id = object["id"]?.integer.flatMap({ UInt32(exactly: $0) }),
              let props = object["info"]?["props"], props["media.class"]?.string == "Audio/Device" else { return nil }
        let params = object["info"]?["params"]
        let properties = PipeWireObjects.properties(props)
        var profileNames: [Int64: String] = [:]
        let profiles = (params?["EnumProfile"]?.array ?? []).compactMap { profile -> CardInfo.Profile? in
            guard let name = profile["name"]?.string else { return nil }
            if let index = profile["index"]?.integer { profileNames[index] = name }
            let counts = Self.classCounts(profile["classes"])
            return CardInfo.Profile(name: name, description: profile["description"]?.string ?? name,
                                    sinkCount: counts.sinks, sourceCount: counts.sources,
                                    priority: profile["priority"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0,
                                    isAvailable: profile["available"]?.string != "no")
        }
        routes = (params?["EnumRoute"]?.array ?? []).compactMap { Self.route($0, profileNames: profileNames) }
        var active: [Int64: String] = [:]
        for route in params?["Route"]?.array ?? [] {
            if let device = route["device"]?.integer, let name = route["name"]?.string {
                active[device] = name
            }
        }
        self.id = id
        activeRoutes = active
        card = CardInfo(index: id, name: properties["device.name"] ?? "", driver: "PipeWire", ownerModule: nil,
                        profiles: profiles, activeProfileName: params?["Profile"]?.array?.first?["name"]?.string,
                        ports: routes.map(\.port), properties: properties)
    }

    /// Gives a node the routes of its device and profile device as ports, and its active route.
    static func attachRoutes(to ports: inout [DevicePort], active: inout String?, of node: DumpNode,
                             devices: [PipeWireDevice]) {
        guard ports.isEmpty, let deviceID = node.properties["device.id"].flatMap({ UInt32($0) }),
              let device = devices.first(where: { $0.id == deviceID }),
              let profileDevice = node.properties["card.profile.device"].flatMap({ Int64($0) }) else { return }
        ports = device.routes.filter { $0.profileDevices.contains(profileDevice) }.map { route in
            DevicePort(name: route.port.name, description: route.port.description, priority: route.port.priority,
                       availability: route.port.availability, type: route.port.type,
                       availabilityGroup: route.port.availabilityGroup)
        }
        active = device.activeRoutes[profileDevice] ?? active
    }

    private static func route(_ route: JSONValue, profileNames: [Int64: String]) -> Route? {
        guard let name = route["name"]?.string else { return nil }
        let info = pairs(route["info"])
        let availability: PortAvailability = switch route["available"]?.string {
        case "yes"?: .available
        case "no"?: .unavailable
        default: .unknown
        }
        let direction: CardInfo.Direction = route["direction"]?.string == "Input" ? .input : .output
        let port = CardInfo.Port(
            name: name, description: route["description"]?.string ?? name,
            priority: route["priority"]?.integer.flatMap { UInt32(exactly: $0) } ?? 0, availability: availability,
            type: info["port.type"].flatMap { PactlVocabulary.portType($0) } ?? .unknown,
            availabilityGroup: info["port.availability-group"], direction: direction,
            profileNames: (route["profiles"]?.array ?? []).compactMap { $0.integer.flatMap { profileNames[$0] } },
            properties: info, latencyOffset: 0)
        return Route(port: port, profileDevices: (route["devices"]?.array ?? []).compactMap(\.integer))
    }

    /// A route's `info`: `[count, key, value, key, value...]` as a dictionary.
    private static func pairs(_ info: JSONValue?) -> [String: String] {
        let strings = (info?.array ?? []).compactMap(\.string)
        var result: [String: String] = [:]
        for position in stride(from: 0, to: strings.count - 1, by: 2) {
            result[strings[position]] = strings[position + 1]
        }
        return result
    }

    /// The sink and source counts of a profile's `classes`: `[n, ["Audio/Sink", 1, ...], ...]`.
    private static func classCounts(_ classes: JSONValue?) -> (sinks: UInt32, sources: UInt32) {
        var counts: (sinks: UInt32, sources: UInt32) = (0, 0)
        for entry in classes?.array ?? [] {
            guard let parts = entry.array, parts.count >= 2, let mediaClass = parts[0].string,
                  let count = parts[1].integer.flatMap({ UInt32(exactly: $0) }) else { continue }
            if mediaClass == "Audio/Sink" { counts.sinks += count }
            if mediaClass == "Audio/Source" { counts.sources += count }
        }
        return counts
    }
}
