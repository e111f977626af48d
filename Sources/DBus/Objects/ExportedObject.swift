/// An object this connection serves at a path, on one interface: what
/// ``BusConnection/export(_:at:properties:)`` returns.
///
/// Read its incoming calls from ``calls`` and answer each one; keep its properties current
/// with ``setProperties(_:)``, which announces the ones that changed with `PropertiesChanged`;
/// send its signals with ``emit(_:_:)``. sd-bus answers `Introspect`, `Get` and `GetAll` itself.
public final class ExportedObject: Sendable {
    /// The path it is served at.
    public var path: String { core.path }
    /// The interface it offers.
    public var interface: BusInterface { core.interface }
    /// The calls to its methods, in the order they came; the stream ends when the object is
    /// removed or the connection ends.
    public let calls: AsyncStream<BusMethodCall>
    let core: ExportedObjectCore

    init(core: ExportedObjectCore, calls: AsyncStream<BusMethodCall>) {
        self.core = core
        self.calls = calls
    }

    /// A property's value now.
    public func property(named name: String) -> BusValue? {
        core.property(named: name)
    }

    /// Sets property values; those that changed are announced in one `PropertiesChanged`
    /// signal. Each value must have its property's declared type.
    public func setProperties(_ changes: [String: BusValue]) {
        for (name, value) in changes {
            precondition(core.interface.properties.contains { $0.name == name && $0.signature == value.signature },
                         "\(name) is no property of \(core.interface.name) with the type of \(value)")
        }
        let changed = core.update(changes)
        guard !changed.isEmpty else { return }
        let core = core
        core.loop.enqueue { loop in loop.emitPropertiesChanged(core, changed) }
    }

    /// Sends one of the interface's signals; `arguments` must have its declared types.
    public func emit(_ signal: String, _ arguments: [BusValue]) {
        precondition(core.interface.signals.contains { $0.name == signal && $0.signature == .sequence(arguments.map(\.signature)) },
                     "\(signal) is no signal of \(core.interface.name) with the types of \(arguments)")
        let core = core
        core.loop.enqueue { loop in loop.emitSignal(core, signal, arguments) }
    }

    /// Stops serving the object; its ``calls`` end.
    public func remove() {
        let core = core
        if !core.loop.enqueue({ loop in loop.unexport(core) }) { core.finishCalls() }
    }
}
