import DBus
import RouteKit

/// One of callaudiod's three methods, with its argument, as the model takes it.
public enum CallAudioMethod: Hashable, Sendable {
    /// `SelectMode(u mode)`: 0 default, 1 voice call.
    case selectMode(UInt32)
    /// `EnableSpeaker(b enable)`.
    case enableSpeaker(Bool)
    /// `MuteMic(b mute)`.
    case muteMic(Bool)
}

/// What a callaudiod method asks of the engine. Each is idempotent: asking for what already
/// holds changes nothing.
public enum CallAudioIntent: Hashable, Sendable {
    /// Voice call mode: the call's audio goes to `output` (the call order's best device, the
    /// loudspeaker only when nothing else is present), and a speaker override ends.
    case enterCallMode(output: AudioDeviceKind)
    /// Default mode: the media route comes back and a speaker override ends.
    case leaveCallMode
    /// The loudspeaker forced on (`output` is then `.speakerphone`), or off, to `output`, the
    /// best device that is not the loudspeaker. Outside a call callaudiod moves the sink's port
    /// the same way; for RouteKit, off there ends the override and media routing decides.
    case speaker(on: Bool, output: AudioDeviceKind)
    /// The call's microphone muted (true) or live (false).
    case muteMicrophone(Bool)
}

/// What a method call gives: the D-Bus answer, what the engine must do, and the properties
/// once it is done.
///
/// The answer is the one to send once the intents are carried out. When the engine cannot
/// carry them out, callaudiod answers `false` and keeps its properties as they were
/// (cad-pulse.c `operation_complete_cb`, 778–827, success 0): see ``unsuccessful(keeping:)``.
public struct CallAudioOutcome: Hashable, Sendable {
    /// The method's `b success`, or the D-Bus error it answers with.
    public var reply: Result<Bool, BusError>
    /// What the engine must do, in order.
    public var intents: [CallAudioIntent]
    /// `AudioMode`, `SpeakerState` and `MicState` once the intents are carried out;
    /// PropertiesChanged is due for those that differ from before (callaudiod emits it only
    /// for a value that changes, after the method's answer).
    public var state: CallAudioState

    /// An outcome from its parts.
    public init(reply: Result<Bool, BusError>, intents: [CallAudioIntent], state: CallAudioState) {
        self.reply = reply
        self.intents = intents
        self.state = state
    }

    /// The engine could not do it: `false`, the properties as they were.
    public static func unsuccessful(keeping state: CallAudioState) -> CallAudioOutcome {
        CallAudioOutcome(reply: .success(false), intents: [], state: state)
    }
}
