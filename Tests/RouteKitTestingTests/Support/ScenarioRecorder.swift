import TestSupport
import PulseAudio

/// Runs the steps of a scenario on a ``ScenarioServer`` and records, for each, the events it
/// caused and the routing it left. A step ends with a fence: a mute toggle of the fence
/// source, whose change event comes after everything the step caused (the server posts events
/// in order); so a step's events are complete without waiting for time to pass.
struct ScenarioRecorder {
    let server: any ScenarioServer
    private let events: AsyncStream<PulseEvent>
    private let fence: SubscriptionEvent
    private var fenceMuted = false
    private var assigner = RoleAssigner()
    private(set) var records: [StepRecord] = []

    /// Subscribes, adds the fence, and lets the setup's events pass.
    init(_ server: any ScenarioServer) async throws {
        self.server = server
        events = server.events()
        fence = SubscriptionEvent(facility: .source, kind: .change, index: try await server.addFence())
        // The fence's own arrival includes a change of the fence: let it pass first.
        _ = try await fenced("the setup", waitingFor: { $0.facility == .module && $0.kind == .new })
    }

    /// Runs `body` as the step `name`; with `waitingFor`, first waits for that event (what a
    /// client process does by itself, such as `pacat` connecting or leaving).
    mutating func step(_ name: String, waitingFor: (@Sendable (SubscriptionEvent) -> Bool)? = nil,
                       _ body: () async throws -> Void) async throws {
        try await body()
        let caused = try await fenced(name, waitingFor: waitingFor)
        records.append(StepRecord(step: name, events: assigner.roles(caused), routing: try await server.routing()))
    }

    private mutating func fenced(_ name: String, waitingFor: (@Sendable (SubscriptionEvent) -> Bool)?) async throws
        -> [SubscriptionEvent] {
        var caused: [SubscriptionEvent] = []
        if let waitingFor {
            caused += try await collectEvents("the events of \(name)", from: events, through: waitingFor)
        }
        fenceMuted.toggle()
        try await server.setFenceMute(fenceMuted)
        let fence = fence
        caused += try await collectEvents("the fence after \(name)", from: events) { $0 == fence }
        caused.removeLast()
        return caused
    }
}
