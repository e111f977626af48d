import PulseAudio

/// Everything a simulated server holds, and PulseAudio 16's core logic over it. Mutated only
/// under ``SimulatedServer``'s lock; every mutation posts its subscription events to
/// ``queue``, which the server drains and delivers once the operation is over.
///
/// The engine follows PulseAudio's own functions, in their order (each extension names the C
/// function it mirrors), because the order of the events *is* the order of those calls.
struct SimulationState: Sendable {
    /// Next indexes: PulseAudio counts each kind of object on its own, from 0, never reusing one.
    struct Counters: Sendable {
        var card: UInt32 = 0
        var module: UInt32 = 0
        var client: UInt32 = 0
        var device = Sides<UInt32>(0)
        var stream = Sides<UInt32>(0)
        var arrival: UInt64 = 0
    }

    var options: SimulatedServer.Options
    var cookie: UInt32
    var cards: [UInt32: CardRecord] = [:]
    var devices = Sides<[UInt32: DeviceRecord]>([:])
    var streams = Sides<[UInt32: StreamRecord]>([:])
    var clients: [UInt32: ClientRecord] = [:]
    var modules: [UInt32: ModuleRecord] = [:]
    /// `core->default_sink` / `core->default_source`.
    var defaultDevice = Sides<UInt32?>(nil)
    /// `core->configured_default_sink` / `..._source`: what a user set, kept while the device is away.
    var configuredDefault = Sides<String?>(nil)
    var next = Counters()
    /// The current main-loop iteration's events.
    var queue = SubscriptionQueue()
    /// Events of iterations that ended, waiting to be delivered.
    var finished: [SubscriptionEvent] = []
    /// Clients whose only stream was killed: they disconnect once the operation is over.
    var departingClients: [UInt32] = []

    init(options: SimulatedServer.Options, cookie: UInt32) {
        self.options = options
        self.cookie = cookie
    }

    mutating func post(_ facility: SubscriptionEvent.Facility, _ kind: SubscriptionEvent.Kind, _ index: UInt32) {
        queue.post(facility, kind, index)
    }

    /// Ends a main-loop iteration: what was posted can no longer be coalesced with what comes.
    mutating func endIteration() {
        finished += queue.drain()
    }

    /// Ends the iteration, lets clients whose stream was killed leave (one iteration each, as
    /// each notices on its own), and hands over every event not delivered yet.
    mutating func takeEvents() -> [SubscriptionEvent] {
        endIteration()
        while !departingClients.isEmpty {
            removeClient(departingClients.removeFirst())
            endIteration()
        }
        defer { finished.removeAll() }
        return finished
    }

    // MARK: Indexes

    mutating func allocateDeviceIndex(_ side: Side) -> UInt32 {
        defer { next.device[side] += 1 }
        return next.device[side]
    }

    mutating func allocateStreamIndex(_ side: Side) -> UInt32 {
        defer { next.stream[side] += 1 }
        return next.stream[side]
    }

    mutating func allocateCardIndex() -> UInt32 {
        defer { next.card += 1 }
        return next.card
    }

    mutating func nextArrival() -> UInt64 {
        defer { next.arrival += 1 }
        return next.arrival
    }

    /// Loads a module record and returns its index; its `new` event is the caller's to post,
    /// after the module's devices (PulseAudio posts it once `pa__init` returns).
    mutating func addModule(name: String, argument: String) -> UInt32 {
        let index = next.module
        next.module += 1
        modules[index] = ModuleRecord(index: index, name: name, argument: argument,
                                      properties: ["module.version": "16.1"])
        return index
    }

    mutating func removeModule(_ index: UInt32) {
        guard modules.removeValue(forKey: index) != nil else { return }
        post(.module, .remove, index)
    }

    mutating func addClient(name: String, properties: [String: String]) -> UInt32 {
        let index = next.client
        next.client += 1
        clients[index] = ClientRecord(index: index, name: name, properties: properties)
        return index
    }

    // MARK: Lookups

    /// The linked device called `name` (exact name), nil when there is none.
    func device(_ side: Side, named name: String) -> DeviceRecord? {
        devices[side].values.first { $0.name == name && !$0.isUnlinking }
    }

    /// The linked devices of `side`, in index order (`PA_IDXSET_FOREACH` over `core->sinks`).
    func linkedDevices(_ side: Side) -> [DeviceRecord] {
        devices[side].values.filter { !$0.isUnlinking }.sorted { $0.index < $1.index }
    }

    /// The streams on `device`, in the order they arrived there.
    func attachedStreams(_ side: Side, on device: UInt32) -> [StreamRecord] {
        streams[side].values.filter { $0.device == device }.sorted { $0.arrival < $1.arrival }
    }

    /// The devices of `card` on `side` that are not monitors, in index order.
    func cardDevices(_ side: Side, card: UInt32) -> [DeviceRecord] {
        devices[side].values.filter { $0.card == card && $0.monitorOf == nil }.sorted { $0.index < $1.index }
    }

    func card(named name: String) -> CardRecord? {
        cards.values.first { $0.name == name }
    }

    /// A device's ports as `SinkInfo`/`SourceInfo` show them: a card device's from its card.
    func ports(of device: DeviceRecord) -> [DevicePort] {
        guard let cardIndex = device.card, let card = cards[cardIndex] else { return device.ownPorts }
        return device.cardPortNames.compactMap { name in
            card.ports.first { $0.name == name }.map { port in
                DevicePort(name: port.name, description: port.description, priority: port.priority,
                           availability: port.availability, type: port.type, availabilityGroup: port.availabilityGroup)
            }
        }
    }

    /// The availability of a device's active port, nil when it has none.
    func activePortAvailability(_ device: DeviceRecord) -> PortAvailability? {
        guard let active = device.activePortName else { return nil }
        return ports(of: device).first { $0.name == active }?.availability
    }
}
