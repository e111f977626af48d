import DumpReader
import PulseAudio
import RouteKit

/// Builds a simulated server's state from a ``ServerDump`` of a real machine.
///
/// A dump shows what is, not what each profile would create. A device belongs to the card the
/// dump says (`pacmd`), else to the card its name points at (`alsa_output.<id>.…` on
/// `alsa_card.<id>`, `bluez_sink.<address>.…` on `bluez_card.<address>`: `pactl` does not
/// print a sink's card). The active profile's devices are the dump's; another profile's (and
/// the active one's when the dump lists cards only) are named as PulseAudio names them
/// (`alsa_output.<id>.<mapping>` from `output:<mapping>`, `bluez_sink.<address>.<profile>`),
/// reusing a dumped device of the same name (an ALSA mapping two profiles share), and offer
/// the card's ports of that profile.
/// Indexes are kept where the dump gives valid, unique ones; priorities follow PulseAudio's
/// rules from the properties; every device starts idle, with no streams; a sink the dump shows
/// without its monitor gets one; monitors of sinks the dump lacks are left out. When the dump's
/// default is not the device PulseAudio's rules would pick, it becomes the configured default.
struct DumpImport {
    private let dump: ServerDump
    private var state: SimulationState
    /// The simulation's card index by card name.
    private var cardIndexes: [String: UInt32] = [:]

    static func state(from dump: ServerDump, options: SimulatedServer.Options, cookie: UInt32) -> SimulationState {
        var builder = DumpImport(dump: dump, state: SimulationState(options: options, cookie: cookie))
        builder.build()
        return builder.state
    }

    private init(dump: ServerDump, state: SimulationState) {
        self.dump = dump
        self.state = state
    }

    private mutating func build() {
        _ = state.addModule(name: "module-native-protocol-unix", argument: "")
        let driverOfModule = Dictionary(
            (dump.cards.map { ($0.ownerModule, $0.driver) } + dump.sinks.map { ($0.ownerModule, $0.driver) }
                + dump.sources.map { ($0.ownerModule, $0.driver) }).compactMap { module, driver in module.map { ($0, driver) } },
            uniquingKeysWith: { first, _ in first })
        for (index, driver) in driverOfModule.sorted(by: { $0.key < $1.key })
        where index != 0 && index != ServerDump.unknownIndex {
            let name = driver.hasSuffix(".c") ? String(driver.dropLast(2)) : driver
            state.modules[index] = ModuleRecord(index: index, name: name, argument: "", properties: [:])
        }
        state.next.module = (state.modules.keys.max() ?? 0) + 1
        let cardNumbers = IndexNumbering(dump.cards.map(\.index))
        for (position, card) in dump.cards.enumerated() {
            addCard(card, index: cardNumbers.index(at: position))
        }
        state.next.card = cardNumbers.next
        addDevices()
        for card in state.cards.values.sorted(by: { $0.index < $1.index }) {
            state.createDevices(card: card.index, profile: card.activeProfile, side: .output)
            state.createDevices(card: card.index, profile: card.activeProfile, side: .input)
        }
        chooseDefaults()
        _ = state.takeEvents()
    }

    // MARK: Cards

    private mutating func addCard(_ card: CardInfo, index: UInt32) {
        cardIndexes[card.name] = index
        let module = card.ownerModule.flatMap { state.modules[$0] != nil ? $0 : nil } ?? addModule(for: card.driver)
        let active = dump.sinks.filter { self.card(of: $0.name, $0.card, $0.ports)?.name == card.name }
            .map { blueprint(of: $0.name, $0.properties, ports: $0.ports, activePort: $0.activePortName, volume: $0.volume) }
        let activeSources = dump.sources.filter { !$0.isMonitor && self.card(of: $0.name, $0.card, $0.ports)?.name == card.name }
            .map { blueprint(of: $0.name, $0.properties, ports: $0.ports, activePort: $0.activePortName, volume: $0.volume) }
        let profiles = Self.profilesWithActive(card, sinks: active.count, sources: activeSources.count).map { profile in
            let isActive = profile.name == card.activeProfileName
            return CardBlueprint.Profile(
                name: profile.name, description: profile.description, priority: profile.priority,
                isAvailable: profile.isAvailable,
                sinks: isActive && !active.isEmpty ? active : Self.devices(of: card, profile, .output, reusing: active),
                sources: isActive && !activeSources.isEmpty ? activeSources
                    : Self.devices(of: card, profile, .input, reusing: activeSources))
        }
        let ports = card.ports.map { port in
            CardBlueprint.Port(name: port.name, description: port.description, priority: port.priority,
                               availability: port.availability, type: port.type, availabilityGroup: port.availabilityGroup,
                               direction: port.direction, properties: port.properties, latencyOffset: port.latencyOffset,
                               profileNames: port.profileNames.isEmpty ? nil : port.profileNames)
        }
        state.cards[index] = CardRecord(index: index, name: card.name, driver: card.driver, module: module,
                                        properties: card.properties, ports: ports, profiles: profiles,
                                        activeProfile: card.activeProfileName ?? SimulationState.initialProfile(profiles),
                                        jacks: [], behavior: card.driver.contains("bluez") ? .bluetooth : .alsa)
    }

    /// The card's profiles, with the one it is in added when the paste left it out (an excerpt
    /// that cut or elided the profile list): the server's card is always in one of its profiles,
    /// `off` when the paste names none.
    static func profilesWithActive(_ card: CardInfo, sinks: Int, sources: Int) -> [CardInfo.Profile] {
        let active = card.activeProfileName ?? (card.profiles.isEmpty ? "off" : nil)
        guard let active, !card.profiles.contains(where: { $0.name == active }) else { return card.profiles }
        let offersNothing = active == "off"
        return card.profiles + [CardInfo.Profile(name: active, description: active,
                                                 sinkCount: offersNothing ? 0 : UInt32(sinks),
                                                 sourceCount: offersNothing ? 0 : UInt32(sources),
                                                 priority: 0, isAvailable: true)]
    }

    private func blueprint(of name: String, _ properties: [String: String], ports: [DevicePort], activePort: String?,
                           volume: ChannelVolumes) -> DeviceBlueprint {
        DeviceBlueprint(name: name, properties: properties, ports: ports.map(\.name), activePort: activePort,
                        channelCount: max(volume.values.count, 1))
    }

    /// The dumped card a device belongs to: the one the dump names, else the one its name points at.
    private func card(of name: String, _ index: UInt32?, _ ports: [DevicePort]) -> CardInfo? {
        if let index, index != ServerDump.unknownIndex, let card = dump.cards.first(where: { $0.index == index }) {
            return card
        }
        let prefixes = ["alsa_output.", "alsa_input.", "bluez_sink.", "bluez_source.", "bluez_output.", "bluez_input."]
        guard let prefix = prefixes.first(where: name.hasPrefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        return dump.cards.first { card in
            guard let dot = card.name.firstIndex(of: ".") else { return false }
            let id = card.name[card.name.index(after: dot)...]
            return rest.hasPrefix(id + ".") && ports.allSatisfy { port in card.ports.contains { $0.name == port.name } }
        }
    }

    private mutating func addModule(for driver: String) -> UInt32 {
        state.addModule(name: driver.hasSuffix(".c") ? String(driver.dropLast(2)) : driver, argument: "")
    }

    // MARK: Sinks and sources

    private mutating func addDevices() {
        let sinksByName = Set(dump.sinks.map(\.name))
        let sources = dump.sources.filter { source in
            guard source.isMonitor else { return true }
            let sink = source.monitorOfSinkName ?? String(source.name.dropLast(".monitor".count))
            return sinksByName.contains(sink)
        }
        let sinkNumbers = IndexNumbering(dump.sinks.map(\.index))
        let sourceNumbers = IndexNumbering(sources.map(\.index))
        var sinkIndexByName: [String: UInt32] = [:]
        for (position, sink) in dump.sinks.enumerated() {
            let index = sinkNumbers.index(at: position)
            sinkIndexByName[sink.name] = index
            var record = device(.output, index: index, sink.name, sink.description, sink.driver, sink.ownerModule,
                                card(of: sink.name, sink.card, sink.ports)?.name, sink.isMuted, sink.volume, sink.baseVolume,
                                sink.ports, sink.activePortName, sink.properties)
            record.monitor = nil
            state.devices.output[index] = record
        }
        for (position, source) in sources.enumerated() {
            let index = sourceNumbers.index(at: position)
            let owner = source.isMonitor ? nil : card(of: source.name, source.card, source.ports)?.name
            var record = device(.input, index: index, source.name, source.description, source.driver, source.ownerModule,
                                owner, source.isMuted, source.volume, source.baseVolume, source.ports,
                                source.activePortName, source.properties)
            if source.isMonitor {
                let sinkName = source.monitorOfSinkName ?? String(source.name.dropLast(".monitor".count))
                record.monitorOf = sinkIndexByName[sinkName]
                if let sink = record.monitorOf.flatMap({ state.devices.output[$0] }) {
                    state.devices.output[sink.index]?.monitor = index
                    record.card = sink.card
                    // A PipeWire monitor repeats its sink's ports; on a card they are the sink's,
                    // and the monitor has none of its own, as PulseAudio's have none.
                    if sink.card != nil {
                        record.ownPorts = []
                        record.activePortName = nil
                    }
                }
            }
            state.devices.input[index] = record
        }
        state.next.device = Sides(output: sinkNumbers.next, input: sourceNumbers.next)
        for sink in state.devices.output.values.sorted(by: { $0.index < $1.index }) where sink.monitor == nil {
            let card = sink.card.flatMap { state.cards[$0] }
            let properties = DeviceProperties.monitor(sinkName: sink.name, sinkDescription: sink.properties["device.description"],
                                                      cardProperties: card?.properties)
            let index = state.allocateDeviceIndex(.input)
            state.devices.input[index] = DeviceRecord(index: index, side: .input, name: sink.name + ".monitor",
                                                      driver: sink.driver, module: sink.module, card: sink.card,
                                                      volume: sink.volume, properties: properties,
                                                      priority: DeviceProperties.priority(properties), monitorOf: sink.index)
            state.devices.output[sink.index]?.monitor = index
        }
    }

    private mutating func device(_ side: Side, index: UInt32, _ name: String, _ description: String, _ driver: String,
                                 _ module: UInt32?, _ card: String?, _ isMuted: Bool, _ volume: ChannelVolumes,
                                 _ baseVolume: UInt32, _ ports: [DevicePort], _ activePort: String?,
                                 _ properties: [String: String]) -> DeviceRecord {
        var properties = properties
        properties["device.description"] = properties["device.description"] ?? description
        let cardIndex = card.flatMap { cardIndexes[$0] }
        let moduleIndex = module.flatMap { state.modules[$0] != nil ? $0 : nil }
        var record = DeviceRecord(index: index, side: side, name: name, driver: driver, module: moduleIndex, card: cardIndex,
                                  isMuted: isMuted, volume: volume, baseVolume: baseVolume, properties: properties,
                                  priority: DeviceProperties.priority(properties))
        let cardPorts = cardIndex.flatMap { state.cards[$0] }.map { Set($0.ports.map(\.name)) } ?? []
        if cardIndex != nil, ports.allSatisfy({ cardPorts.contains($0.name) }) {
            record.cardPortNames = ports.map(\.name)
        } else {
            record.ownPorts = ports
        }
        let known = activePort.flatMap { active in ports.contains { $0.name == active } ? active : nil }
        record.activePortName = known ?? ports.first?.name
        return record
    }

    // MARK: Defaults

    private mutating func chooseDefaults() {
        state.configuredDefault.output = dump.configuredDefaultSinkName
        for side in Side.allCases {
            state.updateDefault(side)
            let named = side == .output ? dump.defaultSinkName : dump.defaultSourceName
            if let named, state.device(side, named: named) != nil,
               state.defaultDevice[side].flatMap({ state.devices[side][$0]?.name }) != named {
                state.configuredDefault[side] = named
                state.updateDefault(side)
            }
        }
    }
}
