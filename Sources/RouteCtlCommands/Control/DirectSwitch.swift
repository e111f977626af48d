import PulseAudio
import RouteKit

/// The requests that put audio on one device without the daemon, in order: the card's
/// profile first when the device needs another one (the device then comes back with a sink,
/// and is planned again), else its ports, then the default sink and source. On both servers
/// the streams that follow the default follow it (PulseAudio moves them itself; WirePlumber
/// does on PipeWire), so nothing is pinned. Pure.
struct DirectSwitch: Equatable, Sendable {
    /// One request.
    enum Step: Equatable, Sendable {
        case profile(card: String, profile: String)
        case sinkPort(sink: String, port: String)
        case sourcePort(source: String, port: String)
        case defaultSink(String)
        case defaultSource(String)
    }

    /// The requests, in order.
    var steps: [Step]
    /// The profile the card is being switched to: the device must show with it before it
    /// can be routed.
    var awaitedProfile: String?
    /// The sink that must become the default.
    var sink: String?

    /// The switch to `device`. `forCall`: its call profile (a Bluetooth headset's HSP/HFP),
    /// so that its microphone works. `view` is the server as read just before.
    static func plan(to device: AudioDevice, forCall: Bool, in view: ServerView) -> DirectSwitch {
        if let card = device.card, let profile = profileToSelect(for: device, forCall: forCall) {
            return DirectSwitch(steps: [.profile(card: card, profile: profile)], awaitedProfile: profile, sink: nil)
        }
        var steps: [Step] = []
        let ports = view.activePorts
        let sink = device.output?.deviceName
        if let sink, let port = device.output?.port, ports[sink] != port { steps.append(.sinkPort(sink: sink, port: port)) }
        let source = device.input?.deviceName
        if let source, let port = device.input?.port, ports[source] != port {
            steps.append(.sourcePort(source: source, port: port))
        }
        if let sink, view.info.defaultSinkName != sink { steps.append(.defaultSink(sink)) }
        if let source, view.info.defaultSourceName != source { steps.append(.defaultSource(source)) }
        return DirectSwitch(steps: steps, awaitedProfile: nil, sink: sink)
    }

    /// The profile `device` needs first, nil when the active one will do: for a call, the
    /// profile that carries output and input together; else the one that offers its output.
    static func profileToSelect(for device: AudioDevice, forCall: Bool) -> String? {
        if forCall, let callProfile = device.callProfile {
            let carriesBoth = device.output?.deviceName != nil && device.input?.deviceName != nil
            return carriesBoth && device.output?.profile == callProfile ? nil : callProfile
        }
        return device.requiredProfile
    }

    /// Whether `device`, as the server shows it now, is what a switch awaiting `profile` (for
    /// a call or not) waits for: on that profile, with a sink (and, for a call, a source).
    static func isReady(_ device: AudioDevice?, profile: String, forCall: Bool) -> Bool {
        guard let device, device.output?.deviceName != nil, device.output?.profile == profile else { return false }
        return !forCall || device.input == nil || device.input?.deviceName != nil
    }
}
