import PulseAudio

/// A playback or recording stream to start on a ``SimulatedServer``
/// (``SimulatedServer/addSinkInput(_:sink:client:)``, ``SimulatedServer/addSourceOutput(_:source:client:)``).
public struct StreamBlueprint: Hashable, Sendable {
    /// The stream's name (`media.name`).
    public var name: String
    /// The application that plays it (`application.name`, also the client's name when the
    /// server connects a client for it).
    public var applicationName: String
    /// More properties, for example `media.role` = `phone`.
    public var properties: [String: String]
    /// Its volume.
    public var volume: ChannelVolumes
    /// Whether it is muted.
    public var isMuted: Bool
    /// Whether it starts corked (paused): a corked stream does not make its device run.
    public var isCorked: Bool

    /// A stream blueprint; by default an unmuted, uncorked stereo stream at 100 %.
    public init(name: String = "Playback", applicationName: String = "Simulated Player",
                properties: [String: String] = [:], volume: ChannelVolumes = ChannelVolumes(channelCount: 2, percent: 100),
                isMuted: Bool = false, isCorked: Bool = false) {
        self.name = name
        self.applicationName = applicationName
        self.properties = properties
        self.volume = volume
        self.isMuted = isMuted
        self.isCorked = isCorked
    }
}
