import PulseAudio

/// Card profile switches (modelled from PulseAudio 16's source; null sinks have no profiles):
/// `pa_card_set_profile` (src/pulsecore/card.c) calls the driver, then posts the card's change.
///
/// - `module-bluez5-device` (`set_profile_cb`) refuses an unavailable profile with
///   `PA_ERR_IO`; otherwise it unlinks the old sink and source (their streams move to the
///   default device, or die without one), then puts the new sink and source.
/// - `module-alsa-card` (`card_set_profile`) detaches the streams of the sinks and sources
///   the new profile does not keep, removes those devices, puts the new ones, moves the
///   detached streams onto the new profile's first sink (source), and sends what is left to
///   the default device (`pa_sink_move_all_fail`).
extension SimulationState {
    /// Switches `card` to `profile`; nil on success, else PulseAudio's error code.
    mutating func switchProfile(card index: UInt32, to profileName: String) -> PulseError.Code? {
        guard let card = cards[index], let target = card.profile(named: profileName) else { return .noSuchEntity }
        guard card.activeProfile != profileName else { return nil }
        switch card.behavior {
        case .bluetooth:
            if profileName != "off", !target.isAvailable { return .inputOutput }
            for sink in cardDevices(.output, card: index) {
                unlinkDevice(.output, sink.index)
            }
            for source in cardDevices(.input, card: index) {
                unlinkDevice(.input, source.index)
            }
            cards[index]?.activeProfile = profileName
            createDevices(card: index, profile: profileName, side: .output)
            createDevices(card: index, profile: profileName, side: .input)
        case .alsa:
            var detached = Sides<[UInt32]>([])
            for side in Side.allCases {
                let kept = Set((side == .output ? target.sinks : target.sources).map(\.name))
                for device in cardDevices(side, card: index) where !kept.contains(device.name) {
                    for stream in attachedStreams(side, on: device.index) {
                        startMove(side, stream.index)
                        detached[side].append(stream.index)
                    }
                    unlinkDevice(side, device.index)
                }
            }
            cards[index]?.activeProfile = profileName
            for side in Side.allCases {
                let created = createDevices(card: index, profile: profileName, side: side)
                if let first = created.first {
                    for stream in detached[side] {
                        finishMove(side, stream, to: first, save: false)
                    }
                    detached[side] = []
                }
            }
            for side in Side.allCases {
                for stream in detached[side] {
                    failMove(side, stream)
                }
            }
        }
        post(.card, .change, index)
        return nil
    }
}
