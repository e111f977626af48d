extension PreferenceList {
    /// How calls are routed unless told otherwise: a Bluetooth headset, a wired headset, the
    /// earpiece, then the speakerphone (AudioSwitch's and Android's order). Media keeps its own
    /// list.
    public static let calls = PreferenceList([.kind(.bluetooth), .kind(.wiredHeadset), .kind(.earpiece), .kind(.speakerphone)])
}

/// The call-time speaker toggle (callaudiod's `EnableSpeaker`).
public enum SpeakerSetting: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Audio on a speakerphone, above every preference.
    case on
    /// Audio on the best device of the call list that is not a speakerphone (the earpiece
    /// when nothing else); the speakerphone only once nothing else is left.
    case off

    /// The raw value.
    public var description: String { rawValue }
}
