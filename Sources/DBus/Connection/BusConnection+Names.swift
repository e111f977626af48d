/// What asking for a well-known bus name gave.
public enum BusNameRequestResult: Hashable, Sendable {
    /// This connection owns it now.
    case primaryOwner
    /// This connection owned it already.
    case alreadyOwner
    /// Another connection owns it; this one did not queue for it.
    case taken
    /// Another connection owns it and did not allow replacement; this one is in the queue,
    /// and becomes the owner when the others before it leave (the bus says `NameAcquired`).
    case queued
}

extension BusConnection {
    /// The bus daemon's own object.
    static func busDaemon(_ member: String, _ arguments: [BusValue]) -> BusCall {
        BusCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: member, arguments: arguments, timeout: .seconds(10))
    }

    /// Asks the bus for `name`, without queueing behind its owner or replacing it.
    public func requestName(_ name: String) async throws -> BusNameRequestResult {
        try await requestName(name, queueing: false)
    }

    /// Asks the bus for `name`. `queueing`: take it from an owner that allows replacement, or
    /// else wait in its queue (``BusNameRequestResult/queued``), as a service that comes back
    /// after the bus restarted does when something took its name meanwhile (activation);
    /// otherwise only take it when nobody owns it (``BusNameRequestResult/taken``).
    public func requestName(_ name: String, queueing: Bool) async throws -> BusNameRequestResult {
        // DBUS_NAME_FLAG_REPLACE_EXISTING (2), queueing; else DBUS_NAME_FLAG_DO_NOT_QUEUE (4).
        let answer = try await call(Self.busDaemon("RequestName", [.string(name), .uint32(queueing ? 2 : 4)]))
        switch answer.first?.uint32Value {
        case 1: return .primaryOwner
        case 4: return .alreadyOwner
        case 2: return queueing ? .queued : .taken
        case 3: return .taken
        default: throw BusError.failed("RequestName(\(name)) answered \(answer)")
        }
    }

    /// The unique name (`:1.42`) of the connection that owns `name`; nil when nobody does.
    public func owner(of name: String) async throws -> String? {
        do {
            return try await call(Self.busDaemon("GetNameOwner", [.string(name)])).first?.stringValue
        } catch let error as BusError where error.name == BusError.nameHasNoOwnerName {
            return nil
        }
    }

    /// The process id of the connection that owns `name`; nil when nobody does.
    public func processID(ofOwnerOf name: String) async throws -> UInt32? {
        do {
            return try await call(Self.busDaemon("GetConnectionUnixProcessID", [.string(name)])).first?.uint32Value
        } catch let error as BusError where error.name == BusError.nameHasNoOwnerName {
            return nil
        }
    }
}
