import PulseAudio
import RouteKitTesting
import TestSupport

extension SimulatedServer {
    /// `count` clients (`pactl`, as a script runs it) connect and leave back to back; returns
    /// once another client has left after them: the reading on a new connection they caused,
    /// gone (`events` must have been made before the burst).
    func clientBurst(_ count: Int, thenReadingGoneIn events: AsyncStream<PulseEvent>) async throws {
        var burst: Set<UInt32> = []
        for _ in 1...count {
            let client = connectClient(name: "pactl")
            burst.insert(client.index)
            try disconnectClient(client.index)
        }
        let pactls = burst
        _ = try await firstEvent("the reading's client gone", in: events, timeout: .seconds(5)) { event in
            guard case .subscription(let change) = event else { return false }
            return change.facility == .client && change.kind == .remove && !pactls.contains(change.index)
        }
    }
}
