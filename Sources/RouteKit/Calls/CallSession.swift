/// A call the engine routes for: an id, where it stands, and who holds it.
///
/// Call mode (the call route, the call's microphone, media held) lasts while any call is
/// ``CallState/active`` or ``CallState/held``; a call that only rings leaves the media route
/// alone. Sessions come from ``AudioDeviceManager/startCall(_:state:origin:processID:)`` (a
/// ``CallHandle``), from ACB's ``AudioDeviceManager/activateCallAudio()`` (one implicit
/// call), from a D-Bus client (ended when its bus name goes) or from streams detected as a
/// call.
public struct CallSession: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// A call's identity, unique among the calls the manager holds.
    public struct ID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The identity as text.
        public let rawValue: String
        /// Wraps an identity.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps an identity.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The identity as text.
        public var description: String { rawValue }
    }

    /// The call's identity.
    public var id: ID
    /// Where the call stands.
    public var state: CallState
    /// Who started it, and so what ends it besides its own end.
    public var origin: CallOrigin
    /// The process whose streams carry the call, when known: its streams are the call's own
    /// (never paused or muted by media pausing).
    public var processID: Int32?

    /// A session from its parts.
    public init(id: ID, state: CallState, origin: CallOrigin, processID: Int32? = nil) {
        self.id = id
        self.state = state
        self.origin = origin
        self.processID = processID
    }

    /// Whether the call holds call mode: active or held (a ringing call does not).
    public var holdsCallMode: Bool { state != .ringing }

    /// `id (state, origin)`.
    public var description: String { "\(id) (\(state), \(origin))" }
}

/// Where a call stands. A call that ended is no longer held by the manager.
public enum CallState: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Incoming or outgoing, not answered yet: ringtones may sound, the route stays media's.
    case ringing
    /// Answered: the call route, the call's microphone.
    case active
    /// On hold: still call mode (the call route stays, so that resuming does not switch).
    case held

    /// The raw value.
    public var description: String { rawValue }
}

/// Who started a call, and so what else ends it.
public enum CallOrigin: Hashable, Sendable, CustomStringConvertible {
    /// A ``CallHandle`` of the Swift API: ended by the handle, or when it is released.
    case application
    /// ACB's ``AudioDeviceManager/activateCallAudio()``: ended by
    /// ``AudioDeviceManager/deactivateCallAudio()``.
    case implicit
    /// A D-Bus client, by its unique bus name: ended when that name goes.
    case busClient(String)
    /// Streams detected as a call (their application's name): ended when they go.
    case detected(String)

    /// For people: `application`, `implicit`, `bus client :1.42`, `detected baresip`.
    public var description: String {
        switch self {
        case .application: "application"
        case .implicit: "implicit"
        case .busClient(let name): "bus client \(name)"
        case .detected(let application): "detected \(application)"
        }
    }
}
