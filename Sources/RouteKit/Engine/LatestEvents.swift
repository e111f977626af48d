import PulseAudio

extension Sequence<SubscriptionEvent> {
    /// One event per object (facility and index), carrying the last thing that happened to
    /// it, in the order the objects first appeared: a batch's CHANGE storm on one sink is one
    /// event, and a sink added then removed is its removal.
    func latestPerObject() -> [SubscriptionEvent] {
        var positions: [ObjectKey: Int] = [:]
        var latest: [SubscriptionEvent] = []
        for event in self {
            let key = ObjectKey(facility: event.facility, index: event.index)
            if let position = positions[key] {
                latest[position].kind = event.kind
            } else {
                positions[key] = latest.count
                latest.append(event)
            }
        }
        return latest
    }
}

/// A server object: its facility and its index.
private struct ObjectKey: Hashable {
    var facility: SubscriptionEvent.Facility
    var index: UInt32
}
