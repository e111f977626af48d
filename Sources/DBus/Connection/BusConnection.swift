import Logging

/// A connection to a D-Bus bus, over sd-bus, owned by one thread of its own.
///
/// ```swift
/// let connection = try await BusConnection.open(.session)
/// let object = try await connection.export(echo, at: "/org/example/Echo", properties: [:])
/// guard try await connection.requestName("org.example.Echo") == .primaryOwner else { return }
/// for await call in object.calls { call.reply(call.arguments) }
/// ```
///
/// Everything is `Sendable` and may be used from any task: work is handed to the
/// connection's thread, which sleeps in `poll(2)` between events (no wake-ups while idle).
/// Closing it, or losing it, ends every exported object's ``ExportedObject/calls`` and fails
/// every call still waiting; ``disconnection()`` says which of the two happened.
public final class BusConnection: Sendable {
    let loop: BusLoop

    private init(loop: BusLoop) {
        self.loop = loop
    }

    /// Connects to `address`. Throws ``BusError`` (`org.freedesktop.DBus.Error.Disconnected`)
    /// when no bus answers there.
    public static func open(_ address: BusAddress, logger: Logger = Logger(label: "routekit.dbus")) async throws(BusError)
        -> BusConnection {
        let loop = try BusLoop(address: address, logger: logger)
        try await loop.start()
        return BusConnection(loop: loop)
    }

    /// Where it is connected.
    public var address: BusAddress { loop.address }

    /// Calls a method and returns what it answered. Throws the peer's error as a ``BusError``,
    /// `org.freedesktop.DBus.Error.NoReply` on a timeout or when the connection ends first,
    /// and `CancellationError` when the calling task is cancelled.
    public func call(_ call: BusCall) async throws -> [BusValue] {
        let pending = PendingCall(label: call.description)
        if !loop.enqueue({ loop in loop.send(call, pending) }) {
            pending.resolve(.failure(BusError.disconnected()))
        }
        return try await pending.value()
    }

    /// Serves `interface` at `path` with the initial `properties` (every property needs one
    /// before anyone reads it). Export objects before requesting the bus name, so that clients
    /// that see the name find them. With `callsInFlight`, a client's calls past its limit are
    /// refused before they are read. The methods in `directAnswers` are answered on the
    /// connection's thread as they are read (``DirectAnswer``).
    public func export(_ interface: BusInterface, at path: String, properties: [String: BusValue],
                       callsInFlight: CallsInFlightLimit? = nil,
                       directAnswers: [String: DirectAnswer] = [:]) async throws(BusError) -> ExportedObject {
        for name in directAnswers.keys {
            precondition(interface.methods.contains { $0.name == name }, "\(name) is no method of \(interface.name)")
        }
        let (calls, continuation) = AsyncStream.makeStream(of: BusMethodCall.self)
        let core = ExportedObjectCore(path: path, interface: interface, properties: properties, loop: loop,
                                      callsInFlight: callsInFlight, directAnswers: directAnswers, calls: continuation)
        let pending = PendingCall(label: "export \(interface.name) at \(path)")
        let queued = loop.enqueue { loop in
            if let failure = loop.export(core) {
                pending.resolve(.failure(failure))
            } else {
                pending.resolve(.success([]))
            }
        }
        if !queued { pending.resolve(.failure(BusError.disconnected())) }
        do {
            _ = try await pending.value()
        } catch let error as BusError {
            continuation.finish()
            throw error
        } catch {
            // Cancelled while the export was queued: it may still happen, so undo it.
            let object = ExportedObject(core: core, calls: calls)
            object.remove()
            throw BusError.failed("export \(interface.name) at \(path) was cancelled")
        }
        return ExportedObject(core: core, calls: calls)
    }

    /// Waits until the connection ends and says how; nil when the waiting task is cancelled first.
    public func disconnection() async -> BusDisconnection? {
        await loop.ended.wait()
    }

    /// Whether the connection has ended (closed or lost).
    public var isDisconnected: Bool { loop.ended.hasFired }

    /// Sends what is queued, closes the connection (releasing its bus names), and waits for
    /// its thread to end.
    public func close() async {
        loop.requestClose()
        _ = await loop.ended.wait()
    }

    deinit {
        loop.requestClose()
    }
}
