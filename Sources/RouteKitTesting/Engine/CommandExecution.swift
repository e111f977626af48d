import PulseAudio

/// Requests, checked and answered as PulseAudio 16's protocol-native.c does
/// (`command_set_default_sink_or_source`, `command_move_stream`, `command_set_card_profile`,
/// `command_set_sink_or_source_port`, `command_set_mute`, `command_set_volume`): an invalid
/// name is `PA_ERR_INVALID`, a missing object `PA_ERR_NOENTITY`, then the driver's answer.
extension SimulationState {
    /// Runs `command`; nil on success, else the error code the server answers.
    mutating func execute(_ command: SimulatedCommand) -> PulseError.Code? {
        switch command {
        case .setDefaultSink(let name): setDefault(.output, name)
        case .setDefaultSource(let name): setDefault(.input, name)
        case .resetDefaultSink: resetDefault(.output)
        case .resetDefaultSource: resetDefault(.input)
        case .moveSinkInput(let stream, let sink): move(.output, stream, to: sink)
        case .moveSourceOutput(let stream, let source): move(.input, stream, to: source)
        case .setSinkPort(let sink, let port): setPort(.output, sink, port)
        case .setSourcePort(let source, let port): setPort(.input, source, port)
        case .setCardProfile(let card, let profile): setProfile(card, profile)
        case .setSinkMute(let sink, let muted): setDeviceMute(.output, sink, muted)
        case .setSourceMute(let source, let muted): setDeviceMute(.input, source, muted)
        case .setSinkInputMute(let stream, let muted): setStreamMute(.output, stream, muted)
        case .setSourceOutputMute(let stream, let muted): setStreamMute(.input, stream, muted)
        case .setSinkVolume(let sink, let volume): setDeviceVolume(.output, sink, volume)
        case .setSourceVolume(let source, let volume): setDeviceVolume(.input, source, volume)
        case .setSinkInputVolume(let stream, let volume): setStreamVolume(.output, stream, volume)
        }
    }

    private mutating func setDefault(_ side: Side, _ name: String) -> PulseError.Code? {
        guard NameResolution.isValid(name) else { return .invalidArgument }
        guard let device = resolveDevice(side, name) else { return .noSuchEntity }
        setConfiguredDefault(side, device.name)
        return nil
    }

    /// No name: `pa_namereg_get` resolves it to the current default, which becomes the
    /// configured one (`command_set_default_sink_or_source` in protocol-native.c).
    private mutating func resetDefault(_ side: Side) -> PulseError.Code? {
        guard let index = defaultDevice[side], let device = devices[side][index] else { return .noSuchEntity }
        setConfiguredDefault(side, device.name)
        return nil
    }

    private mutating func move(_ side: Side, _ stream: UInt32, to name: String) -> PulseError.Code? {
        guard NameResolution.isValidOrWildcard(name, side) else { return .invalidArgument }
        guard streams[side][stream] != nil, let device = resolveDevice(side, name) else { return .noSuchEntity }
        moveStream(side, stream, to: device.index, save: true)
        return nil
    }

    private mutating func setPort(_ side: Side, _ name: String, _ port: String) -> PulseError.Code? {
        guard NameResolution.isValidOrWildcard(name, side) else { return .invalidArgument }
        guard let device = resolveDevice(side, name) else { return .noSuchEntity }
        return setDevicePort(side, device.index, port)
    }

    private mutating func setProfile(_ name: String, _ profile: String) -> PulseError.Code? {
        guard NameResolution.isValid(name) else { return .invalidArgument }
        guard let card = resolveCard(name), card.profile(named: profile) != nil else { return .noSuchEntity }
        return switchProfile(card: card.index, to: profile)
    }

    private mutating func setDeviceMute(_ side: Side, _ name: String, _ muted: Bool) -> PulseError.Code? {
        guard NameResolution.isValidOrWildcard(name, side) else { return .invalidArgument }
        guard let device = resolveDevice(side, name) else { return .noSuchEntity }
        if device.isMuted != muted {
            devices[side][device.index]?.isMuted = muted
            post(side.deviceFacility, .change, device.index)
        }
        return nil
    }

    private mutating func setDeviceVolume(_ side: Side, _ name: String, _ volume: ChannelVolumes) -> PulseError.Code? {
        guard NameResolution.isValidOrWildcard(name, side) else { return .invalidArgument }
        guard let device = resolveDevice(side, name) else { return .noSuchEntity }
        guard let volume = Self.fitted(volume, to: device.volume.values.count) else { return .invalidArgument }
        if device.volume != volume {
            devices[side][device.index]?.volume = volume
            post(side.deviceFacility, .change, device.index)
        }
        return nil
    }

    private mutating func setStreamMute(_ side: Side, _ index: UInt32, _ muted: Bool) -> PulseError.Code? {
        guard let stream = streams[side][index] else { return .noSuchEntity }
        if stream.isMuted != muted {
            streams[side][index]?.isMuted = muted
            post(side.streamFacility, .change, index)
        }
        return nil
    }

    private mutating func setStreamVolume(_ side: Side, _ index: UInt32, _ volume: ChannelVolumes) -> PulseError.Code? {
        guard let stream = streams[side][index] else { return .noSuchEntity }
        guard let volume = Self.fitted(volume, to: stream.volume.values.count) else { return .invalidArgument }
        if stream.volume != volume {
            streams[side][index]?.volume = volume
            post(side.streamFacility, .change, index)
        }
        return nil
    }

    /// One value sets every channel; otherwise the channel count must match.
    private static func fitted(_ volume: ChannelVolumes, to channels: Int) -> ChannelVolumes? {
        if volume.values.count == 1, let value = volume.values.first {
            return ChannelVolumes(channelCount: channels, volume: value)
        }
        return volume.values.count == channels ? volume : nil
    }
}
