import PulseAudio

/// A server whose outputs and playing streams can be muted and given a volume: what silent
/// mode, volume-button capture and media pausing need beyond ``AudioServer`` (routing itself
/// never changes a level). `PulseClient` is one; so is the simulated server.
public protocol VolumeControllingServer: AudioServer {
    /// Mutes or unmutes the sink `sink`.
    func setSinkMute(_ sink: String, muted: Bool) async throws
    /// Sets the volume of every channel of the sink `sink`.
    func setSinkVolume(_ sink: String, _ volume: ChannelVolumes) async throws
    /// Mutes or unmutes the playing stream `sinkInput`, whichever client owns it.
    func setSinkInputMute(_ sinkInput: UInt32, muted: Bool) async throws
}

extension PulseClient: VolumeControllingServer {}
