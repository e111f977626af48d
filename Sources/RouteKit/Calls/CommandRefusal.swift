/// Why the manager refused a command: nothing was changed.
public enum CommandRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// No call has this id.
    case noSuchCall(CallSession.ID)
    /// A call with this id is held already.
    case callExists(CallSession.ID)
    /// The speaker was asked for and no speakerphone can be used; `devices` are those that can.
    case noSpeakerphone(devices: [AudioDevice])
    /// The speaker was turned off and no other device of the call list can be used.
    case nothingButSpeaker(devices: [AudioDevice])
    /// The microphone was to be muted and audio is recorded from nowhere: no device in use has
    /// an input (a monitor is never taken for a microphone).
    case noMicrophone
    /// No present device has this id with an input of its own.
    case noSuchMicrophone(AudioDevice.ID)

    /// For people.
    public var description: String {
        switch self {
        case .noSuchCall(let id): "no call \"\(id)\" is held"
        case .callExists(let id): "a call \"\(id)\" is held already"
        case .noSpeakerphone(let devices): "no speakerphone can be used" + Self.listing(devices)
        case .nothingButSpeaker(let devices):
            "nothing but the speakerphone can carry the call (no headset, no earpiece)" + Self.listing(devices)
        case .noMicrophone: "no microphone is in use: the route has no input"
        case .noSuchMicrophone(let id): "no present device \"\(id)\" has a microphone"
        }
    }

    private static func listing(_ devices: [AudioDevice]) -> String {
        devices.isEmpty ? "; no device can be used" : "; devices: " + devices.map { "\($0.id) (\($0.kind))" }.joined(separator: ", ")
    }
}

/// What a command did, once the manager settled: the route the server confirmed, the source
/// recorded from, and the switches that failed on the way (the manager fell through them).
public struct CommandOutcome: Hashable, Sendable {
    /// Where audio goes now, as the server confirmed it.
    public var route: AudioDevice?
    /// The source audio is recorded from now (the call's microphone), nil when none.
    public var microphone: String?
    /// Whether the microphone is muted now.
    public var isMicrophoneMuted: Bool
    /// What failed while the command settled, in order.
    public var failures: [SwitchFailure]

    /// An outcome from its parts.
    public init(route: AudioDevice?, microphone: String?, isMicrophoneMuted: Bool, failures: [SwitchFailure] = []) {
        self.route = route
        self.microphone = microphone
        self.isMicrophoneMuted = isMicrophoneMuted
        self.failures = failures
    }
}
