import CSystemdBus
import Glibc

// Every C callback this module hands sd-bus or pthreads. They are plain functions at file
// scope, never closure literals: a closure literal written in main-actor code inherits the
// main actor and traps when C calls it on another thread. Each one runs on the connection's
// own thread, copies what it needs out of the message into Swift values, and returns.

/// The connection's thread: `userdata` is a `BusLoop` retained for the thread's lifetime.
func busThreadMain(_ userdata: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let userdata else { return nil }
    let loop = Unmanaged<BusLoop>.fromOpaque(userdata).takeRetainedValue()
    routekit_name_thread("routekit-dbus")
    loop.runThread()
    return nil
}

/// A `SocketWatch` wait's thread: `userdata` is its `SocketWatchThread`, retained for the thread.
func socketWatchThreadMain(_ userdata: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let userdata else { return nil }
    let watch = Unmanaged<SocketWatchThread>.fromOpaque(userdata).takeRetainedValue()
    routekit_name_thread("routekit-wait")
    watch.run()
    return nil
}

/// The answer to an outgoing call (or the error sd-bus makes up on a timeout or a lost
/// connection). `userdata` is its `PendingCall`, still retained for the slot.
func callReplyReceived(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                       _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let userdata else { return 0 }
    let pending = Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue()
    guard let message else {
        pending.resolve(.failure(BusError.failed("\(pending.label): no reply message")))
        return 0
    }
    if let failure = sd_bus_message_get_error(message), sd_bus_error_is_set(failure) != 0 {
        let name = failure.pointee.name.map { String(cString: $0) } ?? BusError.failedName
        let text = failure.pointee.message.map { String(cString: $0) } ?? ""
        pending.resolve(.failure(BusError(name: name, message: text)))
        return 0
    }
    do {
        pending.resolve(.success(try MessageReader.readAll(message, limits: .replies)))
    } catch let failure {
        let name = failure.isOverLimit ? BusError.limitsExceededName : BusError.failedName
        pending.resolve(.failure(BusError(errno: -failure.code, doing: "\(failure.what) in the reply to \(pending.label)", name: name)))
    }
    return 0
}

/// An outgoing call's slot is gone: after its reply, or with the connection. Releases the
/// `PendingCall`, failing it if nothing answered.
func callSlotDestroyed(_ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let pending = Unmanaged<PendingCall>.fromOpaque(userdata).takeRetainedValue()
    pending.resolve(.failure(BusError(name: BusError.noReplyName,
                                      message: "\(pending.label): the connection ended before the answer")))
}

/// An incoming call to an exported object's method. sd-bus has checked its argument types
/// against the vtable already. `userdata` is the object's `ExportedObjectCore`.
func exportedMethodCalled(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                          _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let userdata else { return -EINVAL }
    let object = Unmanaged<ExportedObjectCore>.fromOpaque(userdata).takeUnretainedValue()
    let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
    let expectsReply = sd_bus_message_get_expect_reply(message) > 0
    if let direct = object.directAnswers[member], let answered = answerDirectly(message, direct, expectsReply, object) {
        return answered
    }
    if expectsReply, let limit = object.callsInFlight, !limit.admit(sender ?? "") {
        return sd_bus_error_set(error, limit.errorName, limit.message)
    }
    let arguments: [BusValue]
    do {
        arguments = try MessageReader.readAll(message, limits: .methodCalls)
    } catch let failure {
        if expectsReply { object.callsInFlight?.finish(sender ?? "") }
        let name = failure.isOverLimit ? BusError.limitsExceededName : BusError.invalidArgumentsName
        return sd_bus_error_set(error, name, "could not \(failure.what)")
    }
    let held = expectsReply ? object.loop.hold(message) : nil
    object.deliver(member: member, arguments: arguments, sender: sender, heldCall: held)
    // Answered later, from the job BusMethodCall queues.
    return 1
}

/// Answers `message` with `direct`'s values on the connection's thread; nil when `direct`
/// leaves it to the object's calls. Arguments that cannot be read are refused as any call's are.
private func answerDirectly(_ message: OpaquePointer, _ direct: DirectAnswer, _ expectsReply: Bool,
                            _ object: ExportedObjectCore) -> Int32? {
    guard let arguments = try? MessageReader.readAll(message, limits: .methodCalls),
          let values = direct.answer(arguments) else {
        // Read again (and refused if need be) on the usual way.
        _ = sd_bus_message_rewind(message, 1)
        return nil
    }
    if expectsReply { object.loop.sendReply(to: message, values) }
    return 1
}

/// A property's value, appended inside the variant sd-bus has opened. `userdata` is the
/// object's `ExportedObjectCore`.
func exportedPropertyRead(_ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
                          _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?,
                          _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let property, let reply, let userdata else { return -EINVAL }
    let object = Unmanaged<ExportedObjectCore>.fromOpaque(userdata).takeUnretainedValue()
    let name = String(cString: property)
    guard let value = object.property(named: name) else {
        return sd_bus_error_set(error, BusError.failedName, "the property \(name) has no value yet")
    }
    let appended = MessageWriter.append(value, to: reply)
    return appended < 0 ? appended : 1
}

/// An exported object's registration is gone: unexported, or with the connection. Releases
/// the `ExportedObjectCore` retained for sd-bus, and ends its stream of calls.
func exportedObjectSlotDestroyed(_ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let object = Unmanaged<ExportedObjectCore>.fromOpaque(userdata).takeRetainedValue()
    object.finishCalls()
}

/// A signal that matched a subscription. `userdata` is its `MatchCore`. Its header is checked
/// against the subscription's filter before any argument is read; one refused, or over the
/// limits, is dropped unread.
func signalMatched(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                   _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let userdata else { return 0 }
    let match = Unmanaged<MatchCore>.fromOpaque(userdata).takeUnretainedValue()
    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
    let signature = sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
    guard match.filter.accepts(signature: signature, sender: sender),
          let arguments = try? MessageReader.readAll(message, limits: .signals, wantedKeys: match.filter.wantedKeys)
    else { return 0 }
    match.deliver(BusSignalMessage(
        sender: sender,
        path: sd_bus_message_get_path(message).map { String(cString: $0) } ?? "",
        interface: sd_bus_message_get_interface(message).map { String(cString: $0) } ?? "",
        member: sd_bus_message_get_member(message).map { String(cString: $0) } ?? "",
        arguments: arguments))
    return 0
}

/// The bus's answer to a subscription's AddMatch. `userdata` is its `MatchCore`.
func matchInstalled(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                    _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let userdata else { return 0 }
    let match = Unmanaged<MatchCore>.fromOpaque(userdata).takeUnretainedValue()
    if let message, let failure = sd_bus_message_get_error(message), sd_bus_error_is_set(failure) != 0 {
        let name = failure.pointee.name.map { String(cString: $0) } ?? BusError.failedName
        let text = failure.pointee.message.map { String(cString: $0) } ?? ""
        match.installed.resolve(.failure(BusError(name: name, message: text)))
    } else {
        match.installed.resolve(.success([]))
    }
    return 0
}

/// A subscription's match is gone: removed, or with the connection. Releases its `MatchCore`
/// and ends its stream.
func matchSlotDestroyed(_ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<MatchCore>.fromOpaque(userdata).takeRetainedValue().finish()
}

/// Every incoming message, before sd-bus dispatches it. Calls to
/// `org.freedesktop.DBus.Properties`, which sd-bus answers itself and no method callback
/// sees, are checked (``PropertiesCallCheck``): one that fails is answered here with the
/// error and goes no further (1); everything else goes on as it came (0).
func incomingMessageFiltered(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                             _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, sd_bus_message_is_method_call(message, PropertiesCallCheck.interface, nil) > 0 else { return 0 }
    let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    let signature = sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
    var refusal = PropertiesCallCheck.refusal(member: member, signature: signature)
    if refusal == nil {
        do {
            refusal = PropertiesCallCheck.refusal(member: member, arguments: try MessageReader.readAll(message, limits: .methodCalls))
        } catch let failure {
            refusal = BusError(name: failure.isOverLimit ? BusError.limitsExceededName : BusError.invalidArgumentsName,
                               message: "could not \(failure.what)")
        }
    }
    guard let refusal else {
        _ = sd_bus_message_rewind(message, 1)
        return 0
    }
    if sd_bus_message_get_expect_reply(message) > 0 {
        var failure = sd_bus_error()
        defer { sd_bus_error_free(&failure) }
        sd_bus_error_set(&failure, refusal.name, refusal.message)
        _ = sd_bus_reply_method_error(message, &failure)
    }
    return 1
}
