import FoundationEssentials
import PulseAudio
import RouteKit

/// One line of `routectl monitor --json`: an object per event, `event` naming it, `time` in
/// ISO 8601 (UTC, milliseconds), and the event's own keys (Docs/CommandLine.md lists them).
/// Devices have `routectl list --json`'s shape.
struct MonitorJSONEvent: Encodable {
    /// The engine's event.
    var event: AudioRouteEvent
    /// When it came.
    var time: Date

    private enum Key: String, CodingKey {
        case event, time, route, devices, callAudio, connected, connection, attempt, error, preferences, selection, from, to,
             reason, device, step, message, active, overrides, calls, muted, source, microphone, microphoneMuted, speaker
    }

    /// The event's name, as `event` writes it.
    var name: String {
        switch event {
        case .state: "state"
        case .devicesChanged: "devicesChanged"
        case .routeChanged: "routeChanged"
        case .inputChanged: "inputChanged"
        case .switchFailed: "switchFailed"
        case .callAudioChanged: "callAudioChanged"
        case .connectionChanged: "connectionChanged"
        case .yielded: "yielded"
        case .callsChanged: "callsChanged"
        case .microphoneMuteChanged: "microphoneMuteChanged"
        case .microphoneFailed: "microphoneFailed"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .event)
        try container.encode(time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), forKey: .time)
        func device(_ device: AudioDevice?) -> DeviceOutput.JSONDevice? { device.map(DeviceOutput.JSONDevice.init) }
        switch event {
        case .state(let state):
            try container.encode(device(state.route), forKey: .route)
            try container.encode(state.devices.map(DeviceOutput.JSONDevice.init), forKey: .devices)
            try container.encode(state.isCallAudioActive, forKey: .callAudio)
            try encode(state.connection, in: &container)
            try container.encode(state.preferences.ordered.map(\.description), forKey: .preferences)
            try container.encode(state.selection?.rawValue, forKey: .selection)
            try container.encode(state.calls.map(CallJSON.init), forKey: .calls)
            try container.encode(state.microphone, forKey: .microphone)
            try container.encode(state.isMicrophoneMuted, forKey: .microphoneMuted)
            try container.encode(state.speaker?.rawValue, forKey: .speaker)
        case .devicesChanged(let devices):
            try container.encode(devices.map(DeviceOutput.JSONDevice.init), forKey: .devices)
        case .routeChanged(let from, let to, let reason):
            try container.encode(device(from), forKey: .from)
            try container.encode(device(to), forKey: .to)
            try container.encode(reason.rawValue, forKey: .reason)
        case .inputChanged(let route):
            try container.encode(device(route), forKey: .route)
        case .switchFailed(let failed, let reason):
            try container.encode(device(failed), forKey: .device)
            try container.encode(reason.step.rawValue, forKey: .step)
            try container.encode(reason.message, forKey: .message)
        case .callAudioChanged(let isActive):
            try container.encode(isActive, forKey: .active)
        case .connectionChanged(let connection):
            try encode(connection, in: &container)
        case .yielded(let to, let overrides):
            try container.encode(device(to), forKey: .to)
            try container.encode(overrides, forKey: .overrides)
        case .callsChanged(let calls):
            try container.encode(calls.map(CallJSON.init), forKey: .calls)
        case .microphoneMuteChanged(let isMuted):
            try container.encode(isMuted, forKey: .muted)
        case .microphoneFailed(let source, let reason):
            try container.encode(source, forKey: .source)
            try container.encode(reason.message, forKey: .message)
        }
    }

    /// A call as `calls` writes it: `id`, `state`, `origin`.
    private struct CallJSON: Encodable {
        var id: String
        var state: String
        var origin: String

        init(_ call: CallSession) {
            id = call.id.rawValue
            state = call.state.rawValue
            origin = call.origin.description
        }
    }

    /// `connection` (its stable name: `idle`, `connecting`, `ready`, `reconnecting`, `failed`,
    /// `shutdown`), `connected` (whether it is ready), and while reconnecting or failed the
    /// `error` (what libpulse said) and while reconnecting the `attempt` (from 1).
    private func encode(_ connection: ConnectionState, in container: inout KeyedEncodingContainer<Key>) throws {
        try container.encode(connection.name, forKey: .connection)
        try container.encode(connection.isReady, forKey: .connected)
        try container.encodeIfPresent(connection.reconnectAttempt, forKey: .attempt)
        try container.encodeIfPresent(connection.error?.reason, forKey: .error)
    }

    /// The event as one line of compact JSON, keys sorted.
    static func line(_ event: AudioRouteEvent, at time: Date = Date()) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(MonitorJSONEvent(event: event, time: time)), as: UTF8.self)
    }
}
