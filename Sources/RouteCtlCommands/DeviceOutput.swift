import PulseAudio
import RouteKit

/// How `routectl list` shows devices: a JSON shape scripts can rely on, and a table.
enum DeviceOutput {
    /// One device in `routectl list --json`.
    struct JSONDevice: Encodable {
        struct Output: Encodable {
            var sink: String?
            var port: String?
            var profile: String?
        }

        struct Input: Encodable {
            var source: String?
            var port: String?
            var profile: String?
        }

        var id: String
        var kind: String
        var description: String
        var availability: String
        var active: Bool
        var card: String?
        var output: Output?
        var input: Input?
        var bus: String?
        var formFactor: String?
        var requiredProfile: String?

        init(_ device: AudioDevice) {
            id = device.id.rawValue
            kind = device.kind.rawValue
            description = device.description
            availability = device.availability.rawValue
            active = device.isActive
            card = device.card
            output = device.output.map { Output(sink: $0.deviceName, port: $0.port, profile: $0.profile) }
            input = device.input.map { Input(source: $0.deviceName, port: $0.port, profile: $0.profile) }
            bus = device.bus
            formFactor = device.formFactor
            requiredProfile = device.requiredProfile
        }

        // Absent optionals are written as null: every key is always there.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(description, forKey: .description)
            try container.encode(availability, forKey: .availability)
            try container.encode(active, forKey: .active)
            try container.encode(card, forKey: .card)
            try container.encode(output, forKey: .output)
            try container.encode(input, forKey: .input)
            try container.encode(bus, forKey: .bus)
            try container.encode(formFactor, forKey: .formFactor)
            try container.encode(requiredProfile, forKey: .requiredProfile)
        }

        enum CodingKeys: String, CodingKey {
            case id, kind, description, availability, active, card, output, input, bus, formFactor, requiredProfile
        }
    }

    static func json(_ devices: [AudioDevice]) throws -> String {
        try JSONOutput.encode(devices.map(JSONDevice.init))
    }

    static func table(_ devices: [AudioDevice]) -> String {
        guard !devices.isEmpty else { return "No devices." }
        var table = TextTable(header: ["", "KIND", "DEVICE", "AVAILABLE", "OUTPUT", "INPUT"])
        for device in devices {
            table.rows.append([
                device.isActive ? "*" : "", device.kind.rawValue, device.description, device.availability.rawValue,
                endpointText(device.output, profile: device.requiredProfile),
                endpointText(device.input, profile: nil),
            ])
        }
        return table.render()
    }

    private static func endpointText(_ endpoint: AudioDevice.Endpoint?, profile: String?) -> String {
        guard let endpoint else { return "-" }
        var parts: [String] = []
        if let name = endpoint.deviceName { parts.append(name) }
        if let port = endpoint.port { parts.append(port) }
        var text = parts.isEmpty ? "-" : parts.joined(separator: " : ")
        // Without a sink or source of its own the endpoint needs its profile selected first.
        if endpoint.deviceName == nil, let needed = endpoint.profile ?? profile { text += " [profile \(needed)]" }
        return text
    }
}
