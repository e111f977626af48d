import PulseAudio
import RouteKit
import RouteKitDaemon

/// What `routectl monitor` shows, folded from the engine's events: the devices, the route
/// and its input, call audio, the connection, and the last few events. Pure.
struct MonitorModel: Equatable, Sendable {
    /// How many past events the table keeps.
    static let recentLimit = 8

    /// The devices that can be used.
    var devices: [AudioDevice] = []
    /// The device audio goes to.
    var route: AudioDevice?
    /// Whether call audio is on.
    var isCallAudioOn = false
    /// The calls held, in the order they started.
    var calls: [CallSession] = []
    /// Whether the microphone is muted.
    var isMicrophoneMuted = false
    /// Where the manager stands with its server.
    var connection: ConnectionState = .idle
    /// The last events as lines (``RouteEventLine``), newest last, each with its time.
    var recent: [String] = []

    /// The model after `event`, which happened at `time` (`12:00:01`).
    mutating func apply(_ event: AudioRouteEvent, at time: String) {
        switch event {
        case .state(let state):
            devices = state.devices
            route = state.route
            isCallAudioOn = state.isCallAudioActive
            calls = state.calls
            isMicrophoneMuted = state.isMicrophoneMuted
            connection = state.connection
            return
        case .devicesChanged(let now):
            devices = now
        case .routeChanged(_, let to, _):
            route = to
        case .inputChanged(let device):
            route = device
        case .callAudioChanged(let isActive):
            isCallAudioOn = isActive
        case .connectionChanged(let connection):
            self.connection = connection
        case .callsChanged(let now):
            calls = now
        case .microphoneMuteChanged(let isMuted):
            isMicrophoneMuted = isMuted
        case .switchFailed, .yielded, .microphoneFailed:
            break
        }
        recent.append("\(time)  \(RouteEventLine.text(event))")
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }
}
