import CPulseAudio

/// The kinds of objects whose changes a ``PulseClient`` subscribes to (libpulse's
/// `pa_subscription_mask_t`). The server sends the client nothing else, so a narrow mask
/// also spares the server, the socket and the client's thread.
///
/// ```swift
/// // A client that routes devices and moves streams:
/// let configuration = PulseClient.Configuration(subscription: [.devices, .streams])
/// ```
public struct SubscriptionMask: OptionSet, Hashable, Sendable {
    /// libpulse's `pa_subscription_mask_t` bits.
    public let rawValue: UInt32

    /// A mask from libpulse's `pa_subscription_mask_t` bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    private init(_ mask: pa_subscription_mask) {
        rawValue = mask.rawValue
    }

    /// Sinks (``SubscriptionEvent/Facility/sink``).
    public static let sinks = SubscriptionMask(PA_SUBSCRIPTION_MASK_SINK)
    /// Sources, monitors included (``SubscriptionEvent/Facility/source``).
    public static let sources = SubscriptionMask(PA_SUBSCRIPTION_MASK_SOURCE)
    /// Playback streams (``SubscriptionEvent/Facility/sinkInput``).
    public static let sinkInputs = SubscriptionMask(PA_SUBSCRIPTION_MASK_SINK_INPUT)
    /// Recording streams (``SubscriptionEvent/Facility/sourceOutput``).
    public static let sourceOutputs = SubscriptionMask(PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT)
    /// Modules (``SubscriptionEvent/Facility/module``).
    public static let modules = SubscriptionMask(PA_SUBSCRIPTION_MASK_MODULE)
    /// Clients (``SubscriptionEvent/Facility/client``).
    public static let clients = SubscriptionMask(PA_SUBSCRIPTION_MASK_CLIENT)
    /// Samples in the cache (``SubscriptionEvent/Facility/sampleCache``).
    public static let sampleCache = SubscriptionMask(PA_SUBSCRIPTION_MASK_SAMPLE_CACHE)
    /// The server itself: its defaults (``SubscriptionEvent/Facility/server``).
    public static let server = SubscriptionMask(PA_SUBSCRIPTION_MASK_SERVER)
    /// Cards: profiles and port availability (``SubscriptionEvent/Facility/card``).
    public static let cards = SubscriptionMask(PA_SUBSCRIPTION_MASK_CARD)

    /// What routing devices needs: sinks, sources, cards and the server's defaults.
    public static let devices: SubscriptionMask = [.sinks, .sources, .cards, .server]
    /// Playback and recording streams, for a client that moves them.
    public static let streams: SubscriptionMask = [.sinkInputs, .sourceOutputs]
    /// Everything the server announces (the default).
    public static let all = SubscriptionMask(PA_SUBSCRIPTION_MASK_ALL)

    /// libpulse's type, for `pa_context_subscribe`.
    var libpulseMask: pa_subscription_mask_t { pa_subscription_mask_t(rawValue: rawValue) }
}
