import DBus

/// One of libcallaudio's three enums: its cases are named as the C values' last word.
public protocol LibCallAudioEnum {
    /// The prefix of its values' names in libcallaudio.h, such as `CALL_AUDIO_MODE_`.
    static var enumPrefix: String { get }
}

extension LibCallAudioEnum {
    /// The value's C name, as `callaudiocli -S` prints it (`g_enum_to_string`), such as
    /// `CALL_AUDIO_MODE_CALL`.
    public var cliName: String { Self.enumPrefix + String(describing: self).uppercased() }
}

/// callaudiod's `AudioMode` (libcallaudio's `CallAudioMode`): 0 default, 1 voice call, 255 unknown.
public enum CallAudioMode: UInt32, Hashable, Sendable, CaseIterable, LibCallAudioEnum {
    /// `CALL_AUDIO_MODE_DEFAULT`: no call; audio follows the media route.
    case `default` = 0
    /// `CALL_AUDIO_MODE_CALL`: voice call mode.
    case call = 1
    /// `CALL_AUDIO_MODE_UNKNOWN`.
    case unknown = 255

    /// The prefix of its values' names in libcallaudio.h.
    public static let enumPrefix = "CALL_AUDIO_MODE_"
}

/// callaudiod's `SpeakerState` (libcallaudio's `CallAudioSpeakerState`): 0 off, 1 on, 255 unknown.
public enum CallAudioSpeakerState: UInt32, Hashable, Sendable, CaseIterable, LibCallAudioEnum {
    /// `CALL_AUDIO_SPEAKER_OFF`.
    case off = 0
    /// `CALL_AUDIO_SPEAKER_ON`: the loudspeaker is forced on (speakerphone).
    case on = 1
    /// `CALL_AUDIO_SPEAKER_UNKNOWN`.
    case unknown = 255

    /// The prefix of its values' names in libcallaudio.h.
    public static let enumPrefix = "CALL_AUDIO_SPEAKER_"
}

/// callaudiod's `MicState` (libcallaudio's `CallAudioMicState`): 0 off (muted), 1 on, 255 unknown.
public enum CallAudioMicState: UInt32, Hashable, Sendable, CaseIterable, LibCallAudioEnum {
    /// `CALL_AUDIO_MIC_OFF`: the microphone is muted.
    case off = 0
    /// `CALL_AUDIO_MIC_ON`: the microphone is live.
    case on = 1
    /// `CALL_AUDIO_MIC_UNKNOWN`.
    case unknown = 255

    /// The prefix of its values' names in libcallaudio.h.
    public static let enumPrefix = "CALL_AUDIO_MIC_"

    /// The state of a microphone that is muted or not.
    public init(muted: Bool) {
        self = muted ? .off : .on
    }
}

/// The three properties callaudiod publishes, as one value: what its D-Bus properties say,
/// and what `callaudiocli -S` prints.
public struct CallAudioState: Hashable, Sendable, CustomStringConvertible {
    /// `AudioMode`.
    public var mode: CallAudioMode
    /// `SpeakerState`.
    public var speaker: CallAudioSpeakerState
    /// `MicState`.
    public var microphone: CallAudioMicState

    /// A state from its parts.
    public init(mode: CallAudioMode, speaker: CallAudioSpeakerState, microphone: CallAudioMicState) {
        self.mode = mode
        self.speaker = speaker
        self.microphone = microphone
    }

    /// Nothing known yet (no sound server): 255 for all three, as the interface's XML defines
    /// unknown. callaudiod itself publishes 0, 0, 0 until it has found its card.
    public static let unknown = CallAudioState(mode: .unknown, speaker: .unknown, microphone: .unknown)

    /// The D-Bus properties, by name.
    public var properties: [String: BusValue] {
        ["AudioMode": .uint32(mode.rawValue), "SpeakerState": .uint32(speaker.rawValue),
         "MicState": .uint32(microphone.rawValue)]
    }

    /// What `callaudiocli -S` prints for it (callaudiocli.c's status block): the enum values'
    /// names, under its own labels ("Mic muted: CALL_AUDIO_MIC_ON" means live).
    public var cliStatus: String {
        "Selected mode: \(mode.cliName)\nSpeaker enabled: \(speaker.cliName)\nMic muted: \(microphone.cliName)\n"
    }

    /// `mode/speaker/mic` as numbers, for logs.
    public var description: String { "\(mode.rawValue)/\(speaker.rawValue)/\(microphone.rawValue)" }
}
