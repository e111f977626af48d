import ConcurrencySupport

/// What sd-bus's callbacks reach an exported object through: its properties' values, its
/// stream of incoming calls, and the vtable sd-bus reads. Retained for sd-bus from
/// registration until the registration's destroy callback.
final class ExportedObjectCore: Sendable {
    let path: String
    let interface: BusInterface
    let loop: BusLoop
    let vtable: VTable
    /// The bound on each client's calls waiting for their answer, if any.
    let callsInFlight: CallsInFlightLimit?
    /// The methods answered on the connection's thread, by name.
    let directAnswers: [String: DirectAnswer]
    private let properties: LockedValue<[String: BusValue]>
    private let calls: AsyncStream<BusMethodCall>.Continuation

    init(path: String, interface: BusInterface, properties: [String: BusValue], loop: BusLoop,
         callsInFlight: CallsInFlightLimit? = nil, directAnswers: [String: DirectAnswer] = [:],
         calls: AsyncStream<BusMethodCall>.Continuation) {
        self.callsInFlight = callsInFlight
        self.directAnswers = directAnswers
        self.path = path
        self.interface = interface
        self.loop = loop
        self.vtable = VTable(interface)
        self.properties = LockedValue(properties)
        self.calls = calls
    }

    /// A property's value now (any thread; sd-bus asks on the connection's thread).
    func property(named name: String) -> BusValue? {
        properties.withLock { $0[name] }
    }

    /// Stores the values; returns the names of those that changed, in the interface's order.
    func update(_ changes: [String: BusValue]) -> [String] {
        properties.withLock { values in
            var changed: Set<String> = []
            for (name, value) in changes where values[name] != value {
                values[name] = value
                changed.insert(name)
            }
            return interface.properties.map(\.name).filter(changed.contains)
        }
    }

    /// Hands an incoming call to whoever reads the object's calls. A call nobody can read any
    /// more is answered with an error when it is dropped (``BusMethodCall``'s deinit).
    func deliver(member: String, arguments: [BusValue], sender: String?, heldCall: UInt64?) {
        let call = BusMethodCall(member: member, arguments: arguments, sender: sender, path: path,
                                 interface: interface.name, heldCall: heldCall, loop: loop,
                                 counted: heldCall == nil ? nil : callsInFlight)
        calls.yield(call)
    }

    /// Ends the stream of calls: the object is no longer exported.
    func finishCalls() {
        calls.finish()
    }
}
