import PulseAudio
import RouteKit

/// Performs a ``DirectSwitch`` on the server and waits until the server shows it done: the
/// card on its new profile, then the default sink on the device. Returns the device as the
/// server shows it then (the route as confirmed, not as requested).
struct DirectSwitcher: Sendable {
    /// The server.
    let server: any AudioServer
    /// How long a card may take to bring up a profile's devices, and the server to show a
    /// new default.
    var timeout: Duration = .seconds(5)

    /// Switches to `device` (for a call: in its call profile, with its microphone). Throws
    /// `PulseError` when the server refuses a step or does not show it done in time.
    func switchTo(_ device: AudioDevice, forCall: Bool) async throws -> AudioDevice {
        let events = server.events()
        var view = try await ServerView.read(from: server)
        var target = view.device(device.id) ?? device
        var plan = DirectSwitch.plan(to: target, forCall: forCall, in: view)
        if let profile = plan.awaitedProfile {
            try await perform(plan.steps)
            let id = device.id
            guard let ready = try await ServerWaiting.view(on: server, events: events, timeout: timeout, until: { view in
                DirectSwitch.isReady(view.device(id), profile: profile, forCall: forCall)
            }) else {
                throw PulseError(.timeout, operation: "switch \(target.card ?? "the card") to profile \(profile)",
                                 reason: "\(device.id) did not come up with it in time")
            }
            view = ready
            target = ready.device(id) ?? target
            plan = DirectSwitch.plan(to: target, forCall: forCall, in: view)
        }
        try await perform(plan.steps)
        guard let sink = plan.sink else { return target }
        let id = device.id
        guard let confirmed = try await ServerWaiting.view(on: server, events: events, timeout: timeout, until: { view in
            view.info.defaultSinkName == sink
        }) else {
            let now = try? await server.serverInfo().defaultSinkName
            throw PulseError(.timeout, operation: "set default sink to \"\(sink)\"",
                             reason: "the server kept \(now.map { "\"\($0)\"" } ?? "no sink") as the default")
        }
        return confirmed.device(id) ?? target
    }

    /// Sends `steps` in order.
    func perform(_ steps: [DirectSwitch.Step]) async throws {
        for step in steps {
            switch step {
            case .profile(let card, let profile): try await server.setCardProfile(card, profile: profile)
            case .sinkPort(let sink, let port): try await server.setSinkPort(sink, port: port)
            case .sourcePort(let source, let port): try await server.setSourcePort(source, port: port)
            case .defaultSink(let sink): try await server.setDefaultSink(sink)
            case .defaultSource(let source): try await server.setDefaultSource(source)
            }
        }
    }
}
