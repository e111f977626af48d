import PulseAudio

/// Streams appearing, going and pausing: PulseAudio 16's `pa_sink_input_put`,
/// `pa_sink_input_unlink`, `pa_sink_input_cork` and `pa_client_free` (src/pulsecore/),
/// and their source-output twins.
///
/// Checked against a real PulseAudio 16.1 with `pacat`: a client connecting posts its new,
/// then (next iteration) its change; its stream posts the stream's new, then its device's
/// change (IDLE → RUNNING); a client leaving posts its device's change, the stream's remove,
/// then the client's remove.
extension SimulationState {
    /// `pa_sink_input_put`.
    mutating func putStream(_ stream: StreamRecord) {
        streams[stream.side][stream.index] = stream
        post(stream.side.streamFacility, .new, stream.index)
        if let device = stream.device {
            updateStatus(stream.side, device)
        }
    }

    /// `pa_sink_input_unlink` (the stream ended, or was killed).
    mutating func unlinkStream(_ side: Side, _ index: UInt32) {
        guard let stream = streams[side].removeValue(forKey: index) else { return }
        if let device = stream.device {
            updateStatus(side, device)
        }
        post(side.streamFacility, .remove, index)
    }

    /// `pa_sink_input_kill`: the stream ends because its device went away. A client connected
    /// for this stream alone leaves in a later main-loop iteration, as `pacat` exits when its
    /// stream is killed (see ``SimulationState/takeEvents()``).
    mutating func killStream(_ side: Side, _ index: UInt32) {
        guard let stream = streams[side][index] else { return }
        unlinkStream(side, index)
        if stream.ownsClient, let client = stream.client,
           !Side.allCases.contains(where: { side in streams[side].values.contains { $0.client == client } }) {
            departingClients.append(client)
        }
    }

    /// `pa_sink_input_cork`: the stream's change, then its device's.
    mutating func setCorked(_ side: Side, _ index: UInt32, _ corked: Bool) {
        guard let stream = streams[side][index], stream.isCorked != corked else { return }
        streams[side][index]?.isCorked = corked
        post(side.streamFacility, .change, index)
        if let device = stream.device {
            updateStatus(side, device)
        }
    }

    /// A client leaves (`native_connection_unlink` + `pa_client_free`): its recording
    /// streams end, then its playback streams, then it is removed.
    mutating func removeClient(_ index: UInt32) {
        guard clients[index] != nil else { return }
        for side in [Side.input, .output] {
            for stream in streams[side].values.filter({ $0.client == index }).sorted(by: { $0.index < $1.index }) {
                unlinkStream(side, stream.index)
            }
        }
        clients[index] = nil
        post(.client, .remove, index)
    }
}
