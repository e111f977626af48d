/// A playback stream: a client's audio going to a sink (`pa_sink_input_info`), as a snapshot.
public struct SinkInputInfo: Hashable, Sendable, Identifiable {
    /// The server's index.
    public var index: UInt32
    /// The stream's name.
    public var name: String
    /// The client that owns it, nil for none.
    public var client: UInt32?
    /// The module that owns it, nil for none.
    public var ownerModule: UInt32?
    /// The index of the sink it plays on; ``unlinkedSink`` when it is linked to none.
    public var sink: UInt32
    /// Its volume, per channel.
    public var volume: ChannelVolumes
    /// Whether it is muted.
    public var isMuted: Bool
    /// Whether it is corked (paused by its client).
    public var isCorked: Bool
    /// Its property list (`application.name`, `media.role`, `application.process.id`, ...).
    public var properties: [String: String]

    /// The stream's ``index``.
    public var id: UInt32 { index }

    /// ``sink`` for a stream linked to no sink (`PA_INVALID_INDEX`).
    public static let unlinkedSink = UInt32.max

    /// Whether it plays on a sink. pipewire-pulse shows a stream between two links (moved off a
    /// sink that went), and one its connection's copy of the graph has not linked yet (read on
    /// a connection just made), as linked to none and corked, whatever its client did.
    public var isLinked: Bool { sink != Self.unlinkedSink }

    /// A sink input from its parts.
    public init(index: UInt32, name: String, client: UInt32?, ownerModule: UInt32?, sink: UInt32,
                volume: ChannelVolumes, isMuted: Bool, isCorked: Bool, properties: [String: String]) {
        self.index = index
        self.name = name
        self.client = client
        self.ownerModule = ownerModule
        self.sink = sink
        self.volume = volume
        self.isMuted = isMuted
        self.isCorked = isCorked
        self.properties = properties
    }
}

/// A recording stream: a client's audio coming from a source (`pa_source_output_info`), as a snapshot.
public struct SourceOutputInfo: Hashable, Sendable, Identifiable {
    /// The server's index.
    public var index: UInt32
    /// The stream's name.
    public var name: String
    /// The client that owns it, nil for none.
    public var client: UInt32?
    /// The module that owns it, nil for none.
    public var ownerModule: UInt32?
    /// The index of the source it records from.
    public var source: UInt32
    /// Its volume, per channel.
    public var volume: ChannelVolumes
    /// Whether it is muted.
    public var isMuted: Bool
    /// Whether it is corked.
    public var isCorked: Bool
    /// Its property list.
    public var properties: [String: String]

    /// The stream's ``index``.
    public var id: UInt32 { index }

    /// A source output from its parts.
    public init(index: UInt32, name: String, client: UInt32?, ownerModule: UInt32?, source: UInt32,
                volume: ChannelVolumes, isMuted: Bool, isCorked: Bool, properties: [String: String]) {
        self.index = index
        self.name = name
        self.client = client
        self.ownerModule = ownerModule
        self.source = source
        self.volume = volume
        self.isMuted = isMuted
        self.isCorked = isCorked
        self.properties = properties
    }
}
