import CSystemdBus
import ConcurrencySupport

/// A call to a method of an exported object, waiting for its answer.
///
/// Answer it once, with ``reply(_:)`` or ``fail(_:)``, from any task; the answer is sent on
/// the connection's thread. A call dropped unanswered is answered with
/// `org.freedesktop.DBus.Error.Failed`, so that no caller waits for its timeout.
public final class BusMethodCall: Sendable {
    /// The method's name.
    public let member: String
    /// What the caller passed; their types are the method's declared ones (sd-bus refuses
    /// other calls before they get here).
    public let arguments: [BusValue]
    /// The caller's unique bus name, such as `:1.42`.
    public let sender: String?
    /// The object's path.
    public let path: String
    /// The interface's name.
    public let interface: String
    /// The held message's id on the loop; nil when the caller asked for no answer.
    private let heldCall: UInt64?
    private let loop: BusLoop
    /// The limit this call was counted against until answered, if any.
    private let counted: CallsInFlightLimit?
    private let answered = LockedValue(false)

    init(member: String, arguments: [BusValue], sender: String?, path: String, interface: String,
         heldCall: UInt64?, loop: BusLoop, counted: CallsInFlightLimit? = nil) {
        self.counted = counted
        self.member = member
        self.arguments = arguments
        self.sender = sender
        self.path = path
        self.interface = interface
        self.heldCall = heldCall
        self.loop = loop
    }

    /// Answers with `values`, which must have the method's result types.
    public func reply(_ values: [BusValue]) {
        answer(.success(values))
    }

    /// Answers with an error.
    public func fail(_ error: BusError) {
        answer(.failure(error))
    }

    private func answer(_ result: Result<[BusValue], BusError>) {
        let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
        guard first else { return }
        counted?.finish(sender ?? "")
        guard let heldCall else { return }
        Self.send(result, to: heldCall, on: loop)
    }

    deinit {
        guard let heldCall, !answered.withLock({ $0 }) else { return }
        counted?.finish(sender ?? "")
        Self.send(.failure(.failed("\(interface).\(member) was not answered")), to: heldCall, on: loop)
    }

    /// Queues the answer for the connection's thread; when the connection has ended, the call
    /// is gone with it (its caller heard NoReply from the bus).
    private static func send(_ result: Result<[BusValue], BusError>, to heldCall: UInt64, on loop: BusLoop) {
        loop.enqueue { loop in
            guard let message = loop.release(heldCall) else { return }
            defer { sd_bus_message_unref(message) }
            switch result {
            case .success(let values): loop.sendReply(to: message, values)
            case .failure(let error): loop.sendError(to: message, error)
            }
        }
    }
}
