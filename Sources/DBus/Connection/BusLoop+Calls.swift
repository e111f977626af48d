import CSystemdBus

extension BusLoop {
    /// Sends `call` with `sd_bus_call_async`; `pending` hears the reply from
    /// `callReplyReceived`, or an error from `callSlotDestroyed` if the call ends unanswered.
    /// On the connection's thread.
    func send(_ call: BusCall, _ pending: PendingCall) {
        guard let bus else { return pending.resolve(.failure(BusError.disconnected())) }
        var message: OpaquePointer?
        var result = call.destination.withCString { destination in
            call.path.withCString { path in
                call.interface.withCString { interface in
                    call.member.withCString { member in
                        sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
                    }
                }
            }
        }
        defer { sd_bus_message_unref(message) }
        if result >= 0, let message { result = MessageWriter.append(call.arguments, to: message) }
        guard result >= 0, let message else {
            return pending.resolve(.failure(BusError(errno: -result, doing: "build the call \(call)",
                                                     name: BusError.invalidArgumentsName)))
        }
        // Retained for sd-bus; released by callSlotDestroyed, which every slot reaches.
        let userdata = Unmanaged.passRetained(pending).toOpaque()
        var slot: OpaquePointer?
        result = sd_bus_call_async(bus, &slot, message, callReplyReceived, userdata, call.timeoutMicroseconds)
        guard result >= 0, let slot else {
            Unmanaged<PendingCall>.fromOpaque(userdata).release()
            return pending.resolve(.failure(BusError(errno: -result, doing: "send \(call)")))
        }
        sd_bus_slot_set_destroy_callback(slot, callSlotDestroyed)
        // Floating: the bus owns the slot from now on, and frees it after the reply or with itself.
        sd_bus_slot_set_floating(slot, 1)
        sd_bus_slot_unref(slot)
    }
}
