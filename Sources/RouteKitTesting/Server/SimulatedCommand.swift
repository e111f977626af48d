import PulseAudio

/// A request a ``SimulatedServer`` received, as `PulseClient` would send it. The server keeps
/// them in ``SimulatedServer/receivedCommands``; ``SimulatedServer/failNextCommand(_:with:reason:sideEffect:)``
/// picks them by ``kind``.
public enum SimulatedCommand: Hashable, Sendable, CustomStringConvertible {
    /// `setDefaultSink`.
    case setDefaultSink(String)
    /// `setDefaultSource`.
    case setDefaultSource(String)
    /// `resetDefaultSink`.
    case resetDefaultSink
    /// `resetDefaultSource`.
    case resetDefaultSource
    /// `moveSinkInput`.
    case moveSinkInput(UInt32, toSink: String)
    /// `moveSourceOutput`.
    case moveSourceOutput(UInt32, toSource: String)
    /// `setSinkPort`.
    case setSinkPort(String, port: String)
    /// `setSourcePort`.
    case setSourcePort(String, port: String)
    /// `setCardProfile`.
    case setCardProfile(String, profile: String)
    /// `setSinkMute`.
    case setSinkMute(String, muted: Bool)
    /// `setSourceMute`.
    case setSourceMute(String, muted: Bool)
    /// `setSinkInputMute`.
    case setSinkInputMute(UInt32, muted: Bool)
    /// `setSourceOutputMute`.
    case setSourceOutputMute(UInt32, muted: Bool)
    /// `setSinkVolume`.
    case setSinkVolume(String, ChannelVolumes)
    /// `setSourceVolume`.
    case setSourceVolume(String, ChannelVolumes)
    /// `setSinkInputVolume`.
    case setSinkInputVolume(UInt32, ChannelVolumes)

    /// What kind of request, without its arguments.
    public enum Kind: Hashable, Sendable, CaseIterable {
        /// ``SimulatedCommand/setDefaultSink(_:)``.
        case setDefaultSink
        /// ``SimulatedCommand/setDefaultSource(_:)``.
        case setDefaultSource
        /// ``SimulatedCommand/resetDefaultSink``.
        case resetDefaultSink
        /// ``SimulatedCommand/resetDefaultSource``.
        case resetDefaultSource
        /// ``SimulatedCommand/moveSinkInput(_:toSink:)``.
        case moveSinkInput
        /// ``SimulatedCommand/moveSourceOutput(_:toSource:)``.
        case moveSourceOutput
        /// ``SimulatedCommand/setSinkPort(_:port:)``.
        case setSinkPort
        /// ``SimulatedCommand/setSourcePort(_:port:)``.
        case setSourcePort
        /// ``SimulatedCommand/setCardProfile(_:profile:)``.
        case setCardProfile
        /// ``SimulatedCommand/setSinkMute(_:muted:)``.
        case setSinkMute
        /// ``SimulatedCommand/setSourceMute(_:muted:)``.
        case setSourceMute
        /// ``SimulatedCommand/setSinkInputMute(_:muted:)``.
        case setSinkInputMute
        /// ``SimulatedCommand/setSourceOutputMute(_:muted:)``.
        case setSourceOutputMute
        /// ``SimulatedCommand/setSinkVolume(_:_:)``.
        case setSinkVolume
        /// ``SimulatedCommand/setSourceVolume(_:_:)``.
        case setSourceVolume
        /// ``SimulatedCommand/setSinkInputVolume(_:_:)``.
        case setSinkInputVolume
    }

    /// The request's kind.
    public var kind: Kind {
        switch self {
        case .setDefaultSink: .setDefaultSink
        case .setDefaultSource: .setDefaultSource
        case .resetDefaultSink: .resetDefaultSink
        case .resetDefaultSource: .resetDefaultSource
        case .moveSinkInput: .moveSinkInput
        case .moveSourceOutput: .moveSourceOutput
        case .setSinkPort: .setSinkPort
        case .setSourcePort: .setSourcePort
        case .setCardProfile: .setCardProfile
        case .setSinkMute: .setSinkMute
        case .setSourceMute: .setSourceMute
        case .setSinkInputMute: .setSinkInputMute
        case .setSourceOutputMute: .setSourceOutputMute
        case .setSinkVolume: .setSinkVolume
        case .setSourceVolume: .setSourceVolume
        case .setSinkInputVolume: .setSinkInputVolume
        }
    }

    /// The operation's words, exactly as `PulseClient` labels the same request in a
    /// ``PulseError`` (for example `set default sink to "bt"`).
    public var operation: String {
        switch self {
        case .setDefaultSink(let sink): "set default sink to \"\(sink)\""
        case .setDefaultSource(let source): "set default source to \"\(source)\""
        case .resetDefaultSink: "reset the default sink"
        case .resetDefaultSource: "reset the default source"
        case .moveSinkInput(let stream, let sink): "move sink input #\(stream) to sink \"\(sink)\""
        case .moveSourceOutput(let stream, let source): "move source output #\(stream) to source \"\(source)\""
        case .setSinkPort(let sink, let port): "set port of sink \"\(sink)\" to \"\(port)\""
        case .setSourcePort(let source, let port): "set port of source \"\(source)\" to \"\(port)\""
        case .setCardProfile(let card, let profile): "set profile of card \"\(card)\" to \"\(profile)\""
        case .setSinkMute(let sink, let muted): "\(muted ? "mute" : "unmute") sink \"\(sink)\""
        case .setSourceMute(let source, let muted): "\(muted ? "mute" : "unmute") source \"\(source)\""
        case .setSinkInputMute(let stream, let muted): "\(muted ? "mute" : "unmute") sink input #\(stream)"
        case .setSourceOutputMute(let stream, let muted): "\(muted ? "mute" : "unmute") source output #\(stream)"
        case .setSinkVolume(let sink, let volume): "set volume of sink \"\(sink)\" to \(volume)"
        case .setSourceVolume(let source, let volume): "set volume of source \"\(source)\" to \(volume)"
        case .setSinkInputVolume(let stream, let volume): "set volume of sink input #\(stream) to \(volume)"
        }
    }

    /// The same as ``operation``.
    public var description: String { operation }
}
