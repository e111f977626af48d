import CPulseAudio

/// One change the server announces (`pa_context_subscribe`): what kind of object, what
/// happened to it, and its index.
public struct SubscriptionEvent: Hashable, Sendable, CustomStringConvertible {
    /// The kind of object an event is about.
    public enum Facility: String, Hashable, Sendable, Codable, CaseIterable {
        /// A sink.
        case sink
        /// A source.
        case source
        /// A playback stream.
        case sinkInput
        /// A recording stream.
        case sourceOutput
        /// A module.
        case module
        /// A client.
        case client
        /// A sample in the cache.
        case sampleCache
        /// The server itself (defaults changed).
        case server
        /// A card.
        case card
        /// Something newer than this library.
        case other
    }

    /// What happened.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// It appeared.
        case new
        /// It changed.
        case change
        /// It went away.
        case remove
    }

    /// The kind of object.
    public var facility: Facility
    /// What happened to it.
    public var kind: Kind
    /// Its index (for ``Facility/server``, an invalid index).
    public var index: UInt32

    /// An event from its parts.
    public init(facility: Facility, kind: Kind, index: UInt32) {
        self.facility = facility
        self.kind = kind
        self.index = index
    }

    /// Decodes libpulse's packed event type.
    init(type: pa_subscription_event_type_t, index: UInt32) {
        let raw = type.rawValue
        switch raw & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue: facility = .sink
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: facility = .source
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue: facility = .sinkInput
        case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue: facility = .sourceOutput
        case PA_SUBSCRIPTION_EVENT_MODULE.rawValue: facility = .module
        case PA_SUBSCRIPTION_EVENT_CLIENT.rawValue: facility = .client
        case PA_SUBSCRIPTION_EVENT_SAMPLE_CACHE.rawValue: facility = .sampleCache
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: facility = .server
        case PA_SUBSCRIPTION_EVENT_CARD.rawValue: facility = .card
        default: facility = .other
        }
        switch raw & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_NEW.rawValue: kind = .new
        case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue: kind = .remove
        default: kind = .change
        }
        self.index = index
    }

    /// As `pactl subscribe` prints it: `Event 'new' on sink #3`.
    public var description: String { "Event '\(kind.rawValue)' on \(facility.rawValue) #\(index)" }
}
