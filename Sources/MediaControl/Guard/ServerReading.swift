import PulseAudio

/// When the media guard reads what a server event announces: a pure rule, so that the guard
/// stays out of the way of a route switch without missing what mutes must follow.
///
/// A removal needs no reading and is passed on at once: it is what exposes a stream. A stream
/// that appears or changes is read at once (where it plays decides a mute), and so is a sink
/// that carries a playing stream (its jack pulled exposes that stream). Everything else, a
/// sink appearing or changing while nothing plays on it and the server's default, matters
/// only once media plays there, or for resuming: it is read a moment later, once the route
/// switch that the same event may cause is done, so that the one-threaded server and the two
/// cores of a small machine go to the switch first. PulseAudio announces a new sink as
/// changed before it announces it as new, so "changed" alone does not mean urgent.
enum ServerReading: Equatable, Sendable {
    /// Passed on without reading: the object went away.
    case removal
    /// Read now.
    case now
    /// Read after `ServerFollowing.quietReadDelay`, with the other quiet reads due then.
    case later

    /// How `change` is read, given the sinks on which a stream plays now; nil for what the
    /// guard does not follow.
    static func of(_ change: SubscriptionEvent, playingSinks: Set<UInt32>) -> ServerReading? {
        switch (change.facility, change.kind) {
        case (.sink, .remove), (.sinkInput, .remove): .removal
        case (.sinkInput, _): .now
        case (.sink, .change) where playingSinks.contains(change.index): .now
        case (.sink, _), (.server, _): .later
        default: nil
        }
    }
}

extension ServerObject {
    /// The object `change` is about.
    init(_ change: SubscriptionEvent) {
        switch change.facility {
        case .sinkInput: self = .stream(change.index)
        case .server: self = .server
        default: self = .sink(change.index)
        }
    }
}
