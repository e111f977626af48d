import PulseAudio

/// The engine's records as the value types `PulseClient` returns.
extension SimulationState {
    func serverInfo(_ options: SimulatedServer.Options) -> ServerInfo {
        ServerInfo(serverName: options.serverName, serverVersion: options.serverVersion, userName: options.userName,
                   hostName: options.hostName,
                   defaultSinkName: defaultDevice.output.flatMap { devices.output[$0]?.name },
                   defaultSourceName: defaultDevice.input.flatMap { devices.input[$0]?.name },
                   cookie: cookie)
    }

    func sinkInfo(_ device: DeviceRecord) -> SinkInfo {
        SinkInfo(index: device.index, name: device.name, description: device.properties["device.description"] ?? device.name,
                 driver: device.driver, ownerModule: device.module, card: device.card, isMuted: device.isMuted,
                 volume: device.volume, baseVolume: device.baseVolume,
                 monitorSourceName: device.monitor.flatMap { devices.input[$0]?.name }, state: device.state,
                 ports: ports(of: device), activePortName: device.activePortName, properties: device.properties)
    }

    func sourceInfo(_ device: DeviceRecord) -> SourceInfo {
        SourceInfo(index: device.index, name: device.name, description: device.properties["device.description"] ?? device.name,
                   driver: device.driver, ownerModule: device.module, card: device.card, isMuted: device.isMuted,
                   volume: device.volume, baseVolume: device.baseVolume,
                   monitorOfSinkName: device.monitorOf.flatMap { devices.output[$0]?.name }, state: device.state,
                   ports: ports(of: device), activePortName: device.activePortName, properties: device.properties)
    }

    func cardInfo(_ card: CardRecord) -> CardInfo {
        let profiles = card.profiles.map { profile in
            CardInfo.Profile(name: profile.name, description: profile.description, sinkCount: UInt32(profile.sinks.count),
                             sourceCount: UInt32(profile.sources.count), priority: profile.priority,
                             isAvailable: profile.isAvailable)
        }
        let ports = card.ports.map { port in
            CardInfo.Port(name: port.name, description: port.description, priority: port.priority,
                          availability: port.availability, type: port.type, availabilityGroup: port.availabilityGroup,
                          direction: port.direction, profileNames: card.profileNames(offering: port),
                          properties: port.properties, latencyOffset: port.latencyOffset)
        }
        return CardInfo(index: card.index, name: card.name, driver: card.driver, ownerModule: card.module,
                        profiles: profiles, activeProfileName: card.activeProfile, ports: ports, properties: card.properties)
    }

    func sinkInputInfo(_ stream: StreamRecord) -> SinkInputInfo {
        SinkInputInfo(index: stream.index, name: stream.name, client: stream.client, ownerModule: stream.module,
                      sink: stream.device ?? UInt32.max, volume: stream.volume, isMuted: stream.isMuted,
                      isCorked: stream.isCorked, properties: stream.properties)
    }

    func sourceOutputInfo(_ stream: StreamRecord) -> SourceOutputInfo {
        SourceOutputInfo(index: stream.index, name: stream.name, client: stream.client, ownerModule: stream.module,
                         source: stream.device ?? UInt32.max, volume: stream.volume, isMuted: stream.isMuted,
                         isCorked: stream.isCorked, properties: stream.properties)
    }

    var sinkInfos: [SinkInfo] { linkedDevices(.output).map(sinkInfo) }
    var sourceInfos: [SourceInfo] { linkedDevices(.input).map(sourceInfo) }
    var cardInfos: [CardInfo] { cards.values.sorted { $0.index < $1.index }.map(cardInfo) }
    var sinkInputInfos: [SinkInputInfo] { streams.output.values.sorted { $0.index < $1.index }.map(sinkInputInfo) }
    var sourceOutputInfos: [SourceOutputInfo] { streams.input.values.sorted { $0.index < $1.index }.map(sourceOutputInfo) }

    var clientInfos: [ClientInfo] {
        clients.values.sorted { $0.index < $1.index }.map { client in
            ClientInfo(index: client.index, name: client.name, driver: "protocol-native.c", ownerModule: 0,
                       properties: client.properties)
        }
    }

    var moduleInfos: [ModuleInfo] {
        modules.values.sorted { $0.index < $1.index }.map { module in
            ModuleInfo(index: module.index, name: module.name, argument: module.argument, properties: module.properties)
        }
    }
}
