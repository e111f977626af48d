/// A call found in the server's streams: an application with a playback and a capture stream
/// that ``CallDetectionRule`` matches, lasting longer than a probe.
public struct DetectedCall: Hashable, Sendable, Identifiable {
    /// The detector's own number for a call, unique for the detector's life (never reused):
    /// the key to start and end a call session by.
    public struct ID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The number, from 1.
        public var rawValue: UInt64
        /// The id numbered `rawValue`.
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// Ordered by number: the order calls started in.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        /// `detected-call-N`.
        public var description: String { "detected-call-\(rawValue)" }
    }

    /// The call's id.
    public var id: ID
    /// The application making it, as its streams describe it.
    public var application: DetectedApplication
    /// The indexes of its playback streams (sink inputs), ascending: its downlink.
    public var playbackStreams: [UInt32]
    /// The indexes of its capture streams (source outputs), ascending: its microphone.
    public var captureStreams: [UInt32]

    /// A call from its parts.
    public init(id: ID, application: DetectedApplication, playbackStreams: [UInt32], captureStreams: [UInt32]) {
        self.id = id
        self.application = application
        self.playbackStreams = playbackStreams
        self.captureStreams = captureStreams
    }
}

/// The application behind a detected call, from its streams' properties; any part may be
/// missing when the client did not say (a Flatpak sandbox hides the process id).
public struct DetectedApplication: Hashable, Sendable, CustomStringConvertible {
    /// `application.name`.
    public var name: String?
    /// `application.process.id`.
    public var processID: Int32?
    /// `application.process.binary`.
    public var processBinary: String?

    /// An application from its parts.
    public init(name: String?, processID: Int32?, processBinary: String?) {
        self.name = name
        self.processID = processID
        self.processBinary = processBinary
    }

    /// Its name, binary and process id, as far as known.
    public var description: String {
        let label = name ?? processBinary ?? "unnamed application"
        return processID.map { "\(label) (pid \($0))" } ?? label
    }
}

/// What a ``StreamCallDetector`` reports.
public enum DetectedCallEvent: Hashable, Sendable {
    /// A call began: its streams have run together for the rule's minimum duration.
    case started(DetectedCall)
    /// A call's streams changed (one relinked under a new index, moved, or a stream added):
    /// the call as it is now. Its id stays.
    case changed(DetectedCall)
    /// A call ended: one of its sides has been gone for the rule's hold, or the detector stopped.
    case ended(DetectedCall.ID)
}
