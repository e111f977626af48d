import RouteKit

/// One thing the ringtone machine is told, in the order it happened.
enum RingtoneInput: Sendable {
    case reset(sinks: [(index: UInt32, name: String)], streams: [(index: UInt32, sink: UInt32, properties: [String: String])])
    case sink(index: UInt32, name: String)
    case sinkRemoved(UInt32)
    case stream(index: UInt32, sink: UInt32, properties: [String: String])
    case streamRemoved(UInt32)
    case calls([CallSession])
    case route(AudioDevice?)
    case devices([AudioDevice])
    case silent(Bool)
    case settings(RingingSettings)
    case combinedLoaded(UInt32)
    case combinedFailed(String)
    case moveFailed(stream: UInt32, reason: String)

    /// Feeds it to `machine`.
    func apply(to machine: inout RingtoneMachine) -> [RingtoneAction] {
        switch self {
        case .reset(let sinks, let streams): machine.reset(sinks: sinks, streams: streams)
        case .sink(let index, let name): machine.sinkSeen(index: index, name: name)
        case .sinkRemoved(let index): machine.sinkRemoved(index)
        case .stream(let index, let sink, let properties): machine.streamSeen(index: index, sink: sink, properties: properties)
        case .streamRemoved(let index): machine.streamRemoved(index)
        case .calls(let calls): machine.callsChanged(calls)
        case .route(let route): machine.routeChanged(route)
        case .devices(let devices): machine.devicesChanged(devices)
        case .silent(let isSilent): machine.silentModeChanged(isSilent)
        case .settings(let settings): machine.settingsChanged(settings)
        case .combinedLoaded(let module): machine.combinedSinkLoaded(module: module)
        case .combinedFailed(let reason): machine.combinedSinkFailed(reason)
        case .moveFailed(let stream, let reason): machine.moveFailed(stream: stream, reason: reason)
        }
    }
}
