import PulseAudio

/// Scripting simple devices: sinks and sources without a card, as `module-null-sink` and
/// `module-null-source` load them (a module each).
extension SimulatedServer {
    /// Plugs in a sink without card (and its monitor source), like loading `module-null-sink`,
    /// and returns it. It becomes the default sink when PulseAudio would pick it.
    @discardableResult
    public func addSink(_ sink: DeviceBlueprint) throws(SimulationError) -> SinkInfo {
        try perform { (state: inout SimulationState) throws(SimulationError) -> SinkInfo in
            try Self.checkNewDevice(sink, .output, in: state)
            var argument = "sink_name=\(sink.name)"
            if !sink.properties.isEmpty { argument += " sink_properties=\"\(Self.propertyList(sink.properties))\"" }
            let module = state.addModule(name: "module-null-sink", argument: argument)
            let (device, monitor) = state.makeDevice(.output, sink, card: nil, module: module)
            state.putDevice(device, monitor: monitor)
            state.post(.module, .new, module)
            return state.sinkInfo(state.devices.output[device.index]!)
        }
    }

    /// Unplugs a sink added with ``addSink(_:)``, like unloading its module: its streams move
    /// to the default sink (or end when there is none).
    public func removeSink(named name: String) throws(SimulationError) {
        try removeDevice(.output, named: name)
    }

    /// Plugs in a source without card, like loading `module-null-source`, and returns it.
    @discardableResult
    public func addSource(_ source: DeviceBlueprint) throws(SimulationError) -> SourceInfo {
        try perform { (state: inout SimulationState) throws(SimulationError) -> SourceInfo in
            try Self.checkNewDevice(source, .input, in: state)
            var argument = "source_name=\(source.name)"
            if !source.properties.isEmpty { argument += " source_properties=\"\(Self.propertyList(source.properties))\"" }
            let module = state.addModule(name: "module-null-source", argument: argument)
            let (device, _) = state.makeDevice(.input, source, card: nil, module: module)
            state.putDevice(device, monitor: nil)
            state.post(.module, .new, module)
            return state.sourceInfo(state.devices.input[device.index]!)
        }
    }

    /// Unplugs a source added with ``addSource(_:)``: its streams move to the default source.
    public func removeSource(named name: String) throws(SimulationError) {
        try removeDevice(.input, named: name)
    }

    private func removeDevice(_ side: Side, named name: String) throws(SimulationError) {
        try perform { (state: inout SimulationState) throws(SimulationError) in
            guard let device = state.device(side, named: name), device.monitorOf == nil else {
                throw SimulationError("there is no \(side.deviceNoun) \"\(name)\" to remove")
            }
            if let card = device.card.flatMap({ state.cards[$0] }) {
                throw SimulationError("\(side.deviceNoun) \"\(name)\" belongs to card \"\(card.name)\": "
                                      + "remove the card or switch its profile")
            }
            state.unlinkDevice(side, device.index)
            if let module = device.module {
                state.removeModule(module)
            }
        }
    }

    /// Checks that a device called as `blueprint` can be created now.
    static func checkNewDevice(_ blueprint: DeviceBlueprint, _ side: Side, in state: SimulationState) throws(SimulationError) {
        guard NameResolution.isValid(blueprint.name) else {
            throw SimulationError("\"\(blueprint.name)\" is not a valid device name (1 to 128 of A-Z a-z 0-9 . _ -)")
        }
        let taken = state.device(.output, named: blueprint.name) != nil || state.device(.input, named: blueprint.name) != nil
            || (side == .output && state.device(.input, named: blueprint.name + ".monitor") != nil)
        if taken {
            throw SimulationError("a device called \"\(blueprint.name)\" exists already")
        }
    }

    /// `key='value' …`, as a module argument quotes a property list.
    static func propertyList(_ properties: [String: String]) -> String {
        properties.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
    }
}
