import PulseAudio

/// A volume key: what a press on the default output's volume means.
public enum VolumeButton: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Louder.
    case up
    /// Quieter.
    case down
    /// The mute toggle.
    case mute

    /// `up`, `down` or `mute`.
    public var description: String { rawValue }
}

/// The level of a sink: its per-channel volume and whether it is muted.
public struct SinkLevel: Hashable, Sendable, CustomStringConvertible {
    /// The volume of each channel.
    public var volume: ChannelVolumes
    /// Whether the sink is muted.
    public var isMuted: Bool

    /// A level from its parts.
    public init(volume: ChannelVolumes, isMuted: Bool) {
        self.volume = volume
        self.isMuted = isMuted
    }

    /// For example `50% 50%, muted`.
    public var description: String { "\(volume)\(isMuted ? ", muted" : "")" }
}

/// The default sink as read from the server: its name and level (what the capture machine
/// decides from; package, as the machine is internal).
package struct DefaultSinkReading: Hashable, Sendable {
    /// The sink's name.
    package var sink: String
    /// Its level.
    package var level: SinkLevel

    /// A reading from its parts.
    package init(sink: String, level: SinkLevel) {
        self.sink = sink
        self.level = level
    }
}
