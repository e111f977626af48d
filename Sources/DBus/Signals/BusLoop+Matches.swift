import CSystemdBus

extension BusLoop {
    /// Adds a match with `sd_bus_add_match_async`: `matchInstalled` hears the bus's answer to
    /// AddMatch, `signalMatched` each signal, `matchSlotDestroyed` the end. Returns the slot's
    /// id, for ``removeMatch(_:)``. On the connection's thread.
    func addMatch(_ match: MatchCore) -> UInt64? {
        guard let bus else {
            match.finish()
            return nil
        }
        var slot: OpaquePointer?
        // Retained for sd-bus; released by matchSlotDestroyed.
        let userdata = Unmanaged.passRetained(match).toOpaque()
        let result = match.rule.withCString {
            sd_bus_add_match_async(bus, &slot, $0, signalMatched, matchInstalled, userdata)
        }
        guard result >= 0, let slot else {
            Unmanaged<MatchCore>.fromOpaque(userdata).release()
            match.installed.resolve(.failure(BusError(errno: -result, doing: "add the match \(match.rule)",
                                                      name: BusError.invalidArgumentsName)))
            match.finish()
            return nil
        }
        sd_bus_slot_set_destroy_callback(slot, matchSlotDestroyed)
        return rememberMatch(slot)
    }

    /// Removes a match; its slot's destroy callback ends its stream.
    func removeMatch(_ id: UInt64) {
        if let slot = forgetMatch(id) { sd_bus_slot_unref(slot) }
    }
}
