/// What the server says about itself (`pa_server_info`).
public struct ServerInfo: Hashable, Sendable {
    /// For example `pulseaudio`, or `PulseAudio (on PipeWire 0.3.65)`.
    public var serverName: String
    /// For example `16.1`, or `15.0.0` for pipewire-pulse (its protocol level, not PipeWire's version).
    public var serverVersion: String
    /// The user the server runs as.
    public var userName: String
    /// The host the server runs on.
    public var hostName: String
    /// The default sink's name, nil when there is none.
    public var defaultSinkName: String?
    /// The default source's name, nil when there is none.
    public var defaultSourceName: String?
    /// A random number that tells one server instance from another.
    public var cookie: UInt32

    /// A server info from its parts.
    public init(serverName: String, serverVersion: String, userName: String, hostName: String,
                defaultSinkName: String?, defaultSourceName: String?, cookie: UInt32) {
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.userName = userName
        self.hostName = hostName
        self.defaultSinkName = defaultSinkName
        self.defaultSourceName = defaultSourceName
        self.cookie = cookie
    }

    /// Which sound server speaks the protocol.
    public enum Implementation: String, Hashable, Sendable, Codable {
        /// PulseAudio itself.
        case pulseaudio
        /// PipeWire, through pipewire-pulse.
        case pipewire
        /// Neither of the two by name.
        case other
    }

    /// PulseAudio or PipeWire, from ``serverName``.
    public var implementation: Implementation {
        let name = serverName.lowercased()
        if name.contains("pipewire") { return .pipewire }
        if name.contains("pulseaudio") { return .pulseaudio }
        return .other
    }

    /// PipeWire's own version (`0.3.65`) when the server is pipewire-pulse, else nil.
    public var pipeWireVersion: String? {
        guard implementation == .pipewire else { return nil }
        // "PulseAudio (on PipeWire 0.3.65)": the version is the first run of digits and dots.
        guard let start = serverName.firstIndex(where: \.isNumber) else { return nil }
        return String(serverName[start...].prefix { $0.isNumber || $0 == "." })
    }
}
