import PulseAudio

/// Moving streams between devices: PulseAudio 16's `pa_sink_input_move_to`,
/// `pa_sink_input_start_move`, `pa_sink_input_finish_move`, `pa_sink_input_fail_move`
/// (src/pulsecore/sink-input.c), `pa_sink_move_streams_to_default_sink` (sink.c),
/// `pa_core_move_streams_to_newly_available_preferred_sink` (core.c), and their source twins.
///
/// The event order this produces was checked against a real PulseAudio 16.1: a user's move
/// posts the origin's change (when it goes idle), the stream's change (its preferred device
/// changed), then the destination's change (when it starts running); a move by the server
/// itself posts origin, destination, then stream.
extension SimulationState {
    /// `pa_sink_input_move_to`. `save` is a user's move: it sets or clears the preferred device.
    mutating func moveStream(_ side: Side, _ index: UInt32, to destination: UInt32, save: Bool) {
        guard let stream = streams[side][index], stream.device != destination,
              let target = devices[side][destination], !target.isUnlinking else { return }
        startMove(side, index)
        finishMove(side, index, to: destination, save: save)
    }

    /// `pa_sink_input_start_move`: detaches the stream; its old device may go idle.
    mutating func startMove(_ side: Side, _ index: UInt32) {
        guard let origin = streams[side][index]?.device else { return }
        streams[side][index]?.device = nil
        updateStatus(side, origin)
    }

    /// `pa_sink_input_finish_move`: attaches a detached stream to `destination`.
    mutating func finishMove(_ side: Side, _ index: UInt32, to destination: UInt32, save: Bool) {
        guard streams[side][index] != nil, let target = devices[side][destination] else { return }
        let arrival = nextArrival()
        streams[side][index]?.device = destination
        streams[side][index]?.arrival = arrival
        if save {
            let preferred: String? = destination == defaultDevice[side] ? nil : target.name
            if streams[side][index]?.preferredDevice != preferred {
                streams[side][index]?.preferredDevice = preferred
                post(side.streamFacility, .change, index)
            }
        }
        updateStatus(side, destination)
        post(side.streamFacility, .change, index)
    }

    /// `pa_sink_input_fail_move`: a detached stream goes to the default device, or is killed.
    mutating func failMove(_ side: Side, _ index: UInt32) {
        if let fallback = defaultDevice[side], let device = devices[side][fallback], !device.isUnlinking {
            finishMove(side, index, to: fallback, save: false)
        } else {
            killStream(side, index)
        }
    }

    /// `pa_sink_move_streams_to_default_sink`: after the default changed (streams that prefer
    /// the old device stay), or because `old` became unusable (every stream goes).
    mutating func moveStreamsToDefault(_ side: Side, from old: UInt32, defaultChanged: Bool) {
        guard let fallback = defaultDevice[side], fallback != old,
              let target = devices[side][fallback], !target.isUnlinking,
              let oldName = devices[side][old]?.name else { return }
        for stream in attachedStreams(side, on: old) {
            if defaultChanged, stream.preferredDevice == oldName { continue }
            moveStream(side, stream.index, to: fallback, save: false)
        }
    }

    /// `pa_core_move_streams_to_newly_available_preferred_sink`: streams that prefer `device`
    /// return to it.
    mutating func moveStreamsToPreferred(_ side: Side, _ device: UInt32) {
        guard let name = devices[side][device]?.name else { return }
        let returning = streams[side].values
            .filter { $0.device != nil && $0.device != device && $0.preferredDevice == name }
            .sorted { $0.index < $1.index }
        for stream in returning {
            moveStream(side, stream.index, to: device, save: false)
        }
    }

    /// `pa_sink_update_status`: running while an uncorked stream uses the device, idle otherwise;
    /// a change of state is a change event.
    mutating func updateStatus(_ side: Side, _ index: UInt32) {
        guard let device = devices[side][index], device.state != .suspended else { return }
        let used = streams[side].values.contains { $0.device == index && !$0.isCorked }
        let state: DeviceState = used ? .running : .idle
        guard state != device.state else { return }
        devices[side][index]?.state = state
        post(side.deviceFacility, .change, index)
    }
}
