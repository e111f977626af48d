import PulseAudio

/// A server restart: the same hardware comes back in a fresh server.
enum ServerRestart {
    /// A fresh state with `old`'s cards (in their current profile and port state) and
    /// card-less devices (with their volume and mute), re-created in their old order with new
    /// indexes, no streams and no clients; the configured defaults are kept. Nothing is announced.
    static func rebuild(_ old: SimulationState) -> SimulationState {
        var new = SimulationState(options: old.options, cookie: old.cookie &+ 1)
        _ = new.addModule(name: "module-native-protocol-unix", argument: "")
        new.configuredDefault = old.configuredDefault
        let cardsByModule = Dictionary(old.cards.values.map { ($0.module, $0) }, uniquingKeysWith: { first, _ in first })
        for module in old.modules.values.sorted(by: { $0.index < $1.index }) where module.index != 0 {
            if let card = cardsByModule[module.index] {
                _ = new.putCard(CardBlueprint(card, module: module))
                continue
            }
            let owned = Side.allCases.flatMap { side in
                old.devices[side].values.filter { $0.module == module.index && $0.card == nil && $0.monitorOf == nil }
            }
            guard !owned.isEmpty else { continue }
            let index = new.addModule(name: module.name, argument: module.argument)
            for device in owned.sorted(by: { $0.index < $1.index }) {
                restore(device, from: old, module: index, into: &new)
            }
        }
        for side in Side.allCases {
            for device in old.devices[side].values.sorted(by: { $0.index < $1.index })
            where device.module == nil && device.card == nil && device.monitorOf == nil {
                restore(device, from: old, module: nil, into: &new)
            }
        }
        _ = new.takeEvents()
        return new
    }

    /// Puts a copy of a card-less `device` (and its monitor) into `new`.
    private static func restore(_ device: DeviceRecord, from old: SimulationState, module: UInt32?,
                                into new: inout SimulationState) {
        var copy = device
        copy.index = new.allocateDeviceIndex(device.side)
        copy.module = module
        var monitor: DeviceRecord?
        if let oldMonitor = device.monitor.flatMap({ old.devices.input[$0] }) {
            var monitorCopy = oldMonitor
            monitorCopy.index = new.allocateDeviceIndex(.input)
            monitorCopy.module = module
            monitorCopy.monitorOf = copy.index
            copy.monitor = monitorCopy.index
            monitor = monitorCopy
        }
        new.putDevice(copy, monitor: monitor)
    }
}

extension CardBlueprint {
    /// The blueprint of a card as it is now.
    init(_ card: CardRecord, module: ModuleRecord) {
        self.init(name: card.name, driver: card.driver, properties: card.properties, ports: card.ports,
                  profiles: card.profiles, activeProfile: card.activeProfile, jacks: card.jacks, behavior: card.behavior,
                  moduleName: module.name, moduleArgument: module.argument)
    }
}
