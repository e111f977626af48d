import CSystemdBus
import Glibc
import Logging

extension BusLoop {
    /// Registers `object`'s vtable at its path. On the connection's thread.
    func export(_ object: ExportedObjectCore) -> BusError? {
        guard let bus else { return .disconnected() }
        var slot: OpaquePointer?
        // Retained for sd-bus; released by exportedObjectSlotDestroyed.
        let userdata = Unmanaged.passRetained(object).toOpaque()
        let result = object.path.withCString { path in
            object.interface.name.withCString { interface in
                sd_bus_add_object_vtable(bus, &slot, path, interface, object.vtable.entries, userdata)
            }
        }
        guard result >= 0, let slot else {
            Unmanaged<ExportedObjectCore>.fromOpaque(userdata).release()
            return BusError(errno: -result, doing: "export \(object.interface.name) at \(object.path)")
        }
        sd_bus_slot_set_destroy_callback(slot, exportedObjectSlotDestroyed)
        rememberExport(slot, for: ObjectIdentifier(object))
        return nil
    }

    /// Unregisters `object`; its slot's destroy callback ends its calls. On the connection's thread.
    func unexport(_ object: ExportedObjectCore) {
        if let slot = forgetExport(ObjectIdentifier(object)) { sd_bus_slot_unref(slot) }
    }

    /// Sends `PropertiesChanged` for `names`, with their values as they are when it is built.
    func emitPropertiesChanged(_ object: ExportedObjectCore, _ names: [String]) {
        guard let bus, !names.isEmpty else { return }
        let copies = names.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var list = copies + [nil]
        let result = object.path.withCString { path in
            object.interface.name.withCString { interface in
                list.withUnsafeMutableBufferPointer { sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress) }
            }
        }
        if result < 0 { logger.debug("PropertiesChanged not sent", metadata: ["errno": "\(-result)"]) }
    }

    /// Sends a signal from `object`.
    func emitSignal(_ object: ExportedObjectCore, _ member: String, _ arguments: [BusValue]) {
        guard let bus else { return }
        var message: OpaquePointer?
        var result = object.path.withCString { path in
            object.interface.name.withCString { interface in
                member.withCString { sd_bus_message_new_signal(bus, &message, path, interface, $0) }
            }
        }
        defer { sd_bus_message_unref(message) }
        if result >= 0, let message { result = MessageWriter.append(arguments, to: message) }
        if result >= 0, let message { result = sd_bus_send(bus, message, nil) }
        if result < 0 { logger.debug("signal not sent", metadata: ["signal": "\(member)", "errno": "\(-result)"]) }
    }

    /// Answers `call` with `values`.
    func sendReply(to call: OpaquePointer, _ values: [BusValue]) {
        var reply: OpaquePointer?
        var result = sd_bus_message_new_method_return(call, &reply)
        defer { sd_bus_message_unref(reply) }
        if result >= 0, let reply { result = MessageWriter.append(values, to: reply) }
        if result >= 0, let reply { result = sd_bus_send(bus, reply, nil) }
        if result < 0 {
            // The values did not fit the method's types, or the bus refused: say so, not nothing.
            sendError(to: call, BusError(errno: -result, doing: "send the answer"))
        }
    }

    /// Answers `call` with `error`.
    func sendError(to call: OpaquePointer, _ error: BusError) {
        var failure = sd_bus_error()
        defer { sd_bus_error_free(&failure) }
        sd_bus_error_set(&failure, error.name, error.message)
        let result = sd_bus_reply_method_error(call, &failure)
        if result < 0 { logger.debug("error answer not sent", metadata: ["errno": "\(-result)"]) }
    }
}
