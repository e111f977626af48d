import PulseAudio

/// An event with its index replaced by the object's role: the order in which objects of its
/// facility first appear in the whole recording (the server keeps its own index). Two
/// recordings with equal roles describe the same objects doing the same things, whatever
/// indexes their servers gave them.
struct RoleEvent: Hashable, Sendable, CustomStringConvertible {
    var facility: SubscriptionEvent.Facility
    var kind: SubscriptionEvent.Kind
    var role: Int

    var description: String {
        facility == .server ? "\(facility.rawValue) \(kind.rawValue)" : "\(facility.rawValue)#\(role) \(kind.rawValue)"
    }
}

/// Turns indexes into roles across every step of a recording.
struct RoleAssigner {
    private var roles: [SubscriptionEvent.Facility: [UInt32: Int]] = [:]

    mutating func roles(_ events: [SubscriptionEvent]) -> [RoleEvent] {
        events.map { event in
            var known = roles[event.facility, default: [:]]
            let role = known[event.index] ?? known.count
            known[event.index] = role
            roles[event.facility] = known
            return RoleEvent(facility: event.facility, kind: event.kind, role: event.facility == .server ? 0 : role)
        }
    }
}

/// What a step recorded: its events and the routing it left behind.
struct StepRecord: Hashable, Sendable, CustomStringConvertible {
    var step: String
    var events: [RoleEvent]
    var routing: Routing

    var description: String { "\(step): \(events) → \(routing)" }
}

/// The routing a server shows: its defaults and which sink each playback stream is on.
struct Routing: Hashable, Sendable, CustomStringConvertible {
    var defaultSink: String?
    var defaultSource: String?
    var sinks: [String]
    /// The sink of each stream, streams in index order.
    var streamSinks: [String]

    var description: String {
        "default \(defaultSink ?? "-")/\(defaultSource ?? "-"), sinks \(sinks), streams on \(streamSinks)"
    }
}
