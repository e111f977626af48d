import DBus
import RouteKit

/// callaudiod 0.1.7's answer to each of its methods, as a pure function: given the method,
/// the devices present and the properties now, what to answer, what the engine must do, and
/// the properties after. Line numbers are those of callaudiod 0.1.7's sources
/// (src/cad-manager.c, src/cad-pulse.c); Docs/CallAudio.md tells the whole story.
///
/// Where callaudiod's own properties stop matching where audio goes, the model keeps them
/// true to the route instead (each place says so): `SpeakerState` is on exactly when the
/// loudspeaker carries the call or was forced on, and `MicState` is the call microphone's mute.
public enum CallAudioSemantics {
    /// The outcome of `method` with `devices` present while the properties are `state`.
    public static func outcome(of method: CallAudioMethod, devices: CallAudioDevices,
                               state: CallAudioState) -> CallAudioOutcome {
        switch method {
        case .selectMode(let mode): selectMode(mode, devices: devices, state: state)
        case .enableSpeaker(let enable): enableSpeaker(enable, devices: devices, state: state)
        case .muteMic(let mute): muteMicrophone(mute, devices: devices, state: state)
        }
    }

    /// `SelectMode`: any mode but 0 and 1 (255 included) is InvalidArgs "Invalid mode N"
    /// (cad-manager.c 59–68). Mode 0 unmutes the microphone first, whatever the mode was
    /// (cad-pulse.c 952–959), and ends a speaker override (965–970, cards with a voice
    /// profile; the others leave SpeakerState as it was although the port moves). Without an
    /// output it answers false (982–984). Asking for the mode in force re-applies its routing
    /// and answers true (set_output_port 893–896, 912–923; set_card_profile 848–865).
    static func selectMode(_ mode: UInt32, devices: CallAudioDevices, state: CallAudioState) -> CallAudioOutcome {
        switch CallAudioMode(rawValue: mode) {
        case .default?:
            // The unmute is an operation of its own: its result is not the answer's.
            let unmute = muteMicrophone(false, devices: devices, state: state)
            guard devices.hasOutput else {
                return CallAudioOutcome(reply: .success(false), intents: unmute.intents, state: unmute.state)
            }
            var after = unmute.state
            after.mode = .default
            after.speaker = .off
            let leave: [CallAudioIntent] = state.mode == .default && state.speaker == .off ? [] : [.leaveCallMode]
            return CallAudioOutcome(reply: .success(true), intents: unmute.intents + leave, state: after)
        case .call?:
            guard let output = devices.callOutput else { return .unsuccessful(keeping: state) }
            var after = state
            after.mode = .call
            // callaudiod keeps SpeakerState as it was (the operation is a SelectMode, 800–805);
            // the model says whether the loudspeaker carries the call.
            after.speaker = output == .speakerphone ? .on : .off
            let unchanged = state.mode == .call && state.speaker == after.speaker
            return CallAudioOutcome(reply: .success(true), intents: unchanged ? [] : [.enterCallMode(output: output)],
                                    state: after)
        case .unknown?, nil:
            return CallAudioOutcome(reply: .failure(.invalidArguments("Invalid mode \(mode)")), intents: [], state: state)
        }
    }

    /// `EnableSpeaker`: on selects the speaker port, off the best port that is not the
    /// speaker (set_output_port 904–907), in any mode; no output answers false (1025–1028).
    /// When the target is already in use, or there is none, it answers true and does nothing
    /// (912–923). Nothing but the loudspeaker when turning it off: callaudiod answers true and
    /// says off while audio stays on the loudspeaker; the model answers true and keeps it on.
    /// No loudspeaker when turning it on (callaudiod's card always has one): false.
    static func enableSpeaker(_ enable: Bool, devices: CallAudioDevices, state: CallAudioState) -> CallAudioOutcome {
        guard devices.hasOutput else { return .unsuccessful(keeping: state) }
        var after = state
        if enable {
            guard devices.hasSpeaker else { return .unsuccessful(keeping: state) }
            after.speaker = .on
            let intents: [CallAudioIntent] = state.speaker == .on ? [] : [.speaker(on: true, output: .speakerphone)]
            return CallAudioOutcome(reply: .success(true), intents: intents, state: after)
        }
        guard let output = devices.bestNonSpeaker else {
            return CallAudioOutcome(reply: .success(true), intents: [], state: state)
        }
        after.speaker = .off
        let intents: [CallAudioIntent] = state.speaker == .off ? [] : [.speaker(on: false, output: output)]
        return CallAudioOutcome(reply: .success(true), intents: intents, state: after)
    }

    /// `MuteMic`: mutes or unmutes the card's source, which callaudiod made the default
    /// source when it found it (init_source_info 197); none answers false (1068–1071). It
    /// decides from MicState, not from the source: asking for the state MicState already
    /// says answers true and does nothing (1076–1092). MicState follows only callaudiod's own
    /// mutes (806–815); the model's follows the call microphone.
    static func muteMicrophone(_ mute: Bool, devices: CallAudioDevices, state: CallAudioState) -> CallAudioOutcome {
        guard devices.hasMicrophone else { return .unsuccessful(keeping: state) }
        var after = state
        after.microphone = CallAudioMicState(muted: mute)
        let intents: [CallAudioIntent] = state.microphone == after.microphone ? [] : [.muteMicrophone(mute)]
        return CallAudioOutcome(reply: .success(true), intents: intents, state: after)
    }
}
