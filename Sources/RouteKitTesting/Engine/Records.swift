import PulseAudio

/// A sink or source as the engine keeps it.
struct DeviceRecord: Sendable {
    var index: UInt32
    var side: Side
    var name: String
    var driver: String
    var module: UInt32?
    var card: UInt32?
    var isMuted = false
    var volume: ChannelVolumes
    var baseVolume = ChannelVolumes.normal
    /// Set to idle when the device is put; running while an uncorked stream uses it.
    var state = DeviceState.idle
    /// The card ports it offers (card devices): their availability lives on the card.
    var cardPortNames: [String] = []
    /// Ports of a device without card (from a dump): fixed.
    var ownPorts: [DevicePort] = []
    var activePortName: String?
    var properties: [String: String]
    var priority: UInt32
    /// A sink's monitor source.
    var monitor: UInt32?
    /// A monitor source's sink.
    var monitorOf: UInt32?
    /// `unlink_requested`: it is being removed and can no longer be chosen.
    var isUnlinking = false

    /// Whether `set_port` is implemented (PulseAudio answers `PA_ERR_NOTIMPLEMENTED` otherwise).
    var hasPorts: Bool { !cardPortNames.isEmpty || !ownPorts.isEmpty }
}

/// A sink input or source output as the engine keeps it.
struct StreamRecord: Sendable {
    var index: UInt32
    var side: Side
    var name: String
    var client: UInt32?
    var module: UInt32?
    /// The device it is on; nil only in the middle of a move.
    var device: UInt32?
    var volume: ChannelVolumes
    var isMuted: Bool
    var isCorked: Bool
    var properties: [String: String]
    /// `preferred_sink` / `preferred_source`: set by a user's move to a device other than the default.
    var preferredDevice: String?
    /// When it arrived on its device: a device's streams are visited in this order, as
    /// PulseAudio's idxset of a sink's inputs is.
    var arrival: UInt64
    /// The client was connected for this stream alone, and leaves with it (as `pacat` does).
    var ownsClient: Bool
}

/// A card as the engine keeps it: the blueprint's ports and profiles, with live availability.
struct CardRecord: Sendable {
    var index: UInt32
    var name: String
    var driver: String
    var module: UInt32
    var properties: [String: String]
    var ports: [CardBlueprint.Port]
    var profiles: [CardBlueprint.Profile]
    var activeProfile: String
    var jacks: [CardBlueprint.Jack]
    var behavior: CardBlueprint.Behavior

    func profile(named name: String) -> CardBlueprint.Profile? {
        profiles.first { $0.name == name }
    }

    func portPosition(named name: String) -> Int? {
        ports.firstIndex { $0.name == name }
    }

    /// The profiles that offer `port`: as the port says, else those creating a device of its
    /// direction that lists it.
    func profileNames(offering port: CardBlueprint.Port) -> [String] {
        if let declared = port.profileNames { return declared }
        return profiles.filter { profile in
            let devices = port.direction.contains(.output) ? profile.sinks : profile.sources
            return devices.contains { $0.ports.contains(port.name) }
        }.map(\.name)
    }
}

/// A connected client.
struct ClientRecord: Sendable {
    var index: UInt32
    var name: String
    var properties: [String: String]
}

/// A loaded module.
struct ModuleRecord: Sendable {
    var index: UInt32
    var name: String
    var argument: String
    var properties: [String: String]
}
