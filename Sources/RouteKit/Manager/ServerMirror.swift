import PulseAudio

/// The server's devices and defaults (and, when the manager mirrors them, its streams) as the
/// manager's loop last read them: one view, brought up to date a batch of events at a time,
/// so that whatever only watches the defaults, a device's state (silent mode) or the streams
/// (call detection) reads nothing of its own. ``AudioDeviceManager/mirrors()`` gives it after
/// each change.
///
/// A mirror handed on after a follower's request was answered may still carry what the
/// server answered before that request landed. A follower that writes what it watches (volume
/// capture's restores) asks the manager for the mirror that follows its request
/// (``AudioDeviceManager/mirror(readingAgain:defaults:)``) and takes no mirror of an earlier
/// ``revision`` after it.
public struct ServerMirror: Sendable, Equatable {
    /// The mirror's place among those the manager handed on: each new one has a higher
    /// revision (0 before the first). Two mirrors with the same content may differ in it.
    public var revision: UInt64
    /// Whether the manager's connection is up: while it is not, the rest is what was last
    /// seen, or empty before the first reading.
    public var isConnected: Bool
    /// The sinks, by index.
    public var sinks: [UInt32: SinkInfo]
    /// The sources, by index.
    public var sources: [UInt32: SourceInfo]
    /// The cards, by index.
    public var cards: [UInt32: CardInfo]
    /// The default sink's name; nil when none is set.
    public var defaultSinkName: String?
    /// The default source's name; nil when none is set.
    public var defaultSourceName: String?
    /// The streams, for a manager made to mirror them (`mirrorsStreams`), once it has read
    /// them all on its connection; nil before that, while disconnected, and for a manager
    /// that does not mirror them.
    public var streams: Streams?

    /// The server's streams as the manager's loop last read them: each read once per burst of
    /// its events, after the switch those events may cause.
    public struct Streams: Sendable, Equatable {
        /// The sink inputs (playback), by index.
        public var playback: [UInt32: SinkInputInfo]
        /// The source outputs (recording), by index.
        public var capture: [UInt32: SourceOutputInfo]

        /// Streams from their parts; by default, none.
        public init(playback: [UInt32: SinkInputInfo] = [:], capture: [UInt32: SourceOutputInfo] = [:]) {
            self.playback = playback
            self.capture = capture
        }
    }

    /// A mirror from its parts; by default, nothing read and not connected.
    public init(isConnected: Bool = false, sinks: [UInt32: SinkInfo] = [:], sources: [UInt32: SourceInfo] = [:],
                cards: [UInt32: CardInfo] = [:], defaultSinkName: String? = nil, defaultSourceName: String? = nil,
                streams: Streams? = nil, revision: UInt64 = 0) {
        self.revision = revision
        self.isConnected = isConnected
        self.streams = streams
        self.sinks = sinks
        self.sources = sources
        self.cards = cards
        self.defaultSinkName = defaultSinkName
        self.defaultSourceName = defaultSourceName
    }

    /// The default sink, when the server lists it.
    public var defaultSink: SinkInfo? {
        guard let name = defaultSinkName else { return nil }
        return sinks.values.first { $0.name == name }
    }
}
