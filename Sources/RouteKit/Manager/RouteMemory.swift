/// What one one-shot run of the engine (``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)``)
/// hands to the next, so that a command in another process goes on from where the last one
/// left off: call audio, the call's speaker toggle and device chosen by hand, the microphone's
/// mute, what the call changed that its end puts back, and the media route it found. It is the engine's state, not a
/// second copy of its rules: the engine alone decides what to do with it.
///
/// Outside call mode only the mute is kept: without a process to keep a choice, the route is
/// left as the server has it. Codable, for a file that outlives the process (`routectl` keeps
/// it under `$XDG_RUNTIME_DIR`).
public struct RouteMemory: Hashable, Sendable, Codable {
    /// A card switched to its call profile: the profile it had before, and the one the call
    /// selected (it is put back only while the card still has that one).
    public struct ProfileSwitch: Hashable, Sendable, Codable {
        /// The profile before the call.
        public var original: String
        /// The profile the call selected; nil when unknown.
        public var selected: String?

        /// A switch from its parts.
        public init(original: String, selected: String?) {
            self.original = original
            self.selected = selected
        }
    }

    /// Whether call audio is on (ACB's implicit call).
    public var isCallAudioOn = false
    /// The speaker toggle, while call mode lasts.
    public var speaker: SpeakerSetting?
    /// The device chosen by hand, while call mode lasts.
    public var selection: AudioDevice.ID?
    /// Whether the microphone is muted.
    public var isMicrophoneMuted = false
    /// The sources muted for it, unmuted when the mute ends or the route moves on.
    public var mutedSources: Set<String> = []
    /// The cards switched to a call profile, by name.
    public var callProfiles: [String: ProfileSwitch] = [:]
    /// The default source when call audio started, put back when it ends.
    public var callDefaultSource: String?
    /// Where media went when call audio started: it comes back when the call ends, unless a
    /// media preference decides.
    public var mediaRouteBeforeCall: AudioDevice.ID?

    /// Nothing remembered: the engine as it starts.
    public init() {}

    /// Whether there is nothing to hand on.
    public var isEmpty: Bool { self == RouteMemory() }
}
