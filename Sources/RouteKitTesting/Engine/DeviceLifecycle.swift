import PulseAudio

/// Sinks and sources appearing and going: PulseAudio 16's `pa_sink_new` + `pa_sink_put`,
/// `pa_sink_unlink`, and their source twins (src/pulsecore/sink.c, source.c).
///
/// Checked against a real PulseAudio 16.1 with `module-null-sink`: loading posts the sink's
/// change (state INIT → IDLE), the monitor's change and new, the sink's new, a server change
/// where the default moved (before the sink's new when the monitor became the default
/// source, after it when the sink became the default sink), then the module's new; unloading
/// posts a server change where the default moved, the moves of its streams, the monitor's
/// remove, the sink's remove, then the module's remove.
extension SimulationState {
    /// A device record for `blueprint` with its index allocated (`pa_sink_new`), and for a
    /// sink its monitor source's record (allocated right after). Nothing is posted yet.
    mutating func makeDevice(_ side: Side, _ blueprint: DeviceBlueprint, card: CardRecord?,
                             module: UInt32?) -> (device: DeviceRecord, monitor: DeviceRecord?) {
        var properties = blueprint.properties
        if card == nil {
            // module-null-sink / module-null-source set these before the user's properties.
            let defaults = ["device.description": side == .output ? "Null Output" : "Null Input",
                            "device.class": "abstract"]
            properties.merge(defaults) { own, _ in own }
        }
        properties = DeviceProperties.derive(properties, cardProperties: card?.properties, isSink: side == .output)
        let driver = blueprint.driver ?? card?.driver ?? (side == .output ? "module-null-sink.c" : "module-null-source.c")
        let volume = ChannelVolumes(channelCount: max(blueprint.channelCount, 1), percent: 100)
        let index = allocateDeviceIndex(side)
        var device = DeviceRecord(index: index, side: side, name: blueprint.name, driver: driver, module: module,
                                  card: card?.index, volume: volume, properties: properties,
                                  priority: blueprint.priority ?? DeviceProperties.priority(properties))
        if let card {
            device.cardPortNames = blueprint.ports
            device.activePortName = blueprint.activePort ?? bestPort(blueprint.ports, on: card)
        }
        guard side == .output else { return (device, nil) }
        let monitorProperties = DeviceProperties.monitor(sinkName: blueprint.name,
                                                         sinkDescription: properties["device.description"],
                                                         cardProperties: card?.properties)
        let monitorIndex = allocateDeviceIndex(.input)
        device.monitor = monitorIndex
        let monitor = DeviceRecord(index: monitorIndex, side: .input, name: blueprint.name + ".monitor", driver: driver,
                                   module: module, card: card?.index, volume: volume, properties: monitorProperties,
                                   priority: DeviceProperties.priority(monitorProperties), monitorOf: index)
        return (device, monitor)
    }

    /// `pa_device_port_find_best`: the highest-priority port that is not unavailable, else the
    /// highest-priority port.
    func bestPort(_ names: [String], on card: CardRecord) -> String? {
        let ports = names.compactMap { name in card.ports.first { $0.name == name } }
        var best: CardBlueprint.Port?
        for port in ports where port.availability != .unavailable {
            if best == nil || port.priority > best!.priority { best = port }
        }
        if best == nil {
            for port in ports where best == nil || port.priority > best!.priority { best = port }
        }
        return best?.name
    }

    /// `pa_sink_put` / `pa_source_put`.
    mutating func putDevice(_ device: DeviceRecord, monitor: DeviceRecord?) {
        let side = device.side
        var device = device
        device.state = .idle
        devices[side][device.index] = device
        post(side.deviceFacility, .change, device.index)
        if let monitor {
            putDevice(monitor, monitor: nil)
        }
        post(side.deviceFacility, .new, device.index)
        updateDefault(side)
        moveStreamsToPreferred(side, device.index)
    }

    /// `pa_sink_unlink` / `pa_source_unlink`: the default moves on, streams are rescued to the
    /// default device (or killed when there is none), a sink's monitor goes first.
    mutating func unlinkDevice(_ side: Side, _ index: UInt32) {
        guard let device = devices[side][index], !device.isUnlinking else { return }
        devices[side][index]?.isUnlinking = true
        updateDefault(side)
        moveStreamsToDefault(side, from: index, defaultChanged: false)
        for stream in attachedStreams(side, on: index) {
            killStream(side, stream.index)
        }
        if let monitor = device.monitor {
            unlinkDevice(.input, monitor)
        }
        devices[side][index] = nil
        post(side.deviceFacility, .remove, index)
        if defaultDevice[side] == index {
            defaultDevice[side] = nil
            updateDefault(side)
        }
    }

    /// `pa_sink_set_port`: nil on success, else PulseAudio's error.
    mutating func setDevicePort(_ side: Side, _ index: UInt32, _ portName: String) -> PulseError.Code? {
        guard let device = devices[side][index] else { return .noSuchEntity }
        guard device.hasPorts else { return .notImplemented }
        guard ports(of: device).contains(where: { $0.name == portName }) else { return .noSuchEntity }
        guard device.activePortName != portName else { return nil }
        post(side.deviceFacility, .change, index)
        devices[side][index]?.activePortName = portName
        updateDefault(side)
        return nil
    }
}
