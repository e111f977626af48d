import PulseAudio
import SoundServerSandbox
import TestSupport

/// What an independent connection sees of a call's playback streams (its downlink: the far
/// end's voice), event by event: on which sink each one plays and whether it is muted, read
/// at every event about it, and when sinks go away. For tests that must show that a call never
/// went silent and how soon it was on its new device.
final class DownlinkWatch: Sendable {
    /// One reading of a call's playback stream, made at an event about it.
    struct Sighting: Sendable, CustomStringConvertible {
        /// When the event that prompted the reading arrived.
        var at: ContinuousClock.Instant
        /// The sink input.
        var stream: UInt32
        /// Its `application.process.id`.
        var processID: String
        /// The sink it plays on.
        var sink: UInt32
        /// Whether it is muted.
        var isMuted: Bool

        var description: String { "sink input \(stream) of pid \(processID) on sink \(sink)\(isMuted ? ", muted" : "")" }
    }

    /// What the watch saw, in order.
    enum Observation: Sendable, CustomStringConvertible {
        /// A reading of a call's playback stream.
        case sighting(Sighting)
        /// The sink with this index went away, at that moment.
        case sinkRemoved(UInt32, at: ContinuousClock.Instant)

        var description: String {
            switch self {
            case .sighting(let sighting): "\(sighting)"
            case .sinkRemoved(let sink, _): "sink \(sink) removed"
            }
        }
    }

    private let client: PulseClient
    private let events: AsyncStream<PulseEvent>
    private let processIDs: Set<String>
    private let observations = RecordedEvents<Observation>()

    /// A watch on `server` of the playback streams of the processes `processIDs`, connected
    /// (so that it hears every event from now on); ``follow()`` records them.
    init(server: SandboxServer, processIDs: [Int32]) async throws {
        client = PulseClient(configuration: .init(server: server.socketPath, applicationName: "downlink-watch",
                                                  reconnectPolicy: .never))
        events = client.events()
        self.processIDs = Set(processIDs.map(String.init))
        try await client.connect()
    }

    /// Reads the streams there are, then each stream again at every event about it, until
    /// ``shutdown()`` or the task's cancellation.
    func follow() async {
        let start = ContinuousClock.now
        for stream in (try? await client.sinkInputs()) ?? [] { await record(stream, at: start) }
        for await event in events {
            guard case .subscription(let change) = event else { continue }
            let now = ContinuousClock.now
            switch (change.facility, change.kind) {
            case (.sink, .remove):
                await observations.append(.sinkRemoved(change.index, at: now))
            case (.sinkInput, .new), (.sinkInput, .change):
                if let stream = try? await client.sinkInput(at: change.index) { await record(stream, at: now) }
            default:
                break
            }
        }
    }

    /// Every reading so far, in order.
    var sightings: [Sighting] {
        get async {
            await observations.events.compactMap { if case .sighting(let sighting) = $0 { sighting } else { nil } }
        }
    }

    /// When the sink `index` went away, waiting for the watch to see it.
    func removal(ofSink index: UInt32) async throws -> ContinuousClock.Instant {
        let removal = try await observations.next("sink \(index)'s removal", after: 0) {
            if case .sinkRemoved(index, _) = $0 { true } else { false }
        }
        guard case .sinkRemoved(_, let instant) = removal else { throw TimedOut(what: "sink \(index)'s removal") }
        return instant
    }

    /// When process `processID`'s playback was first seen on the sink `index` at or after
    /// `instant`, waiting for the watch to see it.
    func firstSighting(of processID: Int32, onSink index: UInt32, since instant: ContinuousClock.Instant) async throws -> ContinuousClock.Instant {
        let pid = String(processID)
        let found = try await observations.next("pid \(pid)'s playback on sink \(index)", after: 0) {
            if case .sighting(let sighting) = $0 { sighting.processID == pid && sighting.sink == index && sighting.at >= instant } else { false }
        }
        guard case .sighting(let sighting) = found else { throw TimedOut(what: "pid \(pid)'s playback on sink \(index)") }
        return sighting.at
    }

    /// Ends the connection (and ``follow()``).
    func shutdown() {
        client.shutdown()
    }

    private func record(_ stream: SinkInputInfo, at instant: ContinuousClock.Instant) async {
        guard let pid = stream.properties["application.process.id"], processIDs.contains(pid) else { return }
        await observations.append(.sighting(Sighting(at: instant, stream: stream.index, processID: pid, sink: stream.sink,
                                                     isMuted: stream.isMuted)))
    }
}
