import PulseAudio
import SoundServerSandbox
import Synchronization

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

    private struct Log {
        var sightings: [Sighting] = []
        var sinkRemovals: [(sink: UInt32, at: ContinuousClock.Instant)] = []
    }

    private let client: PulseClient
    private let events: AsyncStream<PulseEvent>
    private let processIDs: Set<String>
    private let log = Mutex(Log())

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
        for stream in (try? await client.sinkInputs()) ?? [] { record(stream, at: start) }
        for await event in events {
            guard case .subscription(let change) = event else { continue }
            let now = ContinuousClock.now
            switch (change.facility, change.kind) {
            case (.sink, .remove):
                log.withLock { $0.sinkRemovals.append((change.index, now)) }
            case (.sinkInput, .new), (.sinkInput, .change):
                if let stream = try? await client.sinkInput(at: change.index) { record(stream, at: now) }
            default:
                break
            }
        }
    }

    /// Every reading so far, in order.
    var sightings: [Sighting] { log.withLock { $0.sightings } }

    /// When the sink `index` was last seen going away; nil if it was not.
    func removal(ofSink index: UInt32) -> ContinuousClock.Instant? {
        log.withLock { $0.sinkRemovals.last { $0.sink == index }?.at }
    }

    /// When process `processID`'s playback was first seen on the sink `index` at or after `instant`.
    func firstSighting(of processID: Int32, onSink index: UInt32, since instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let pid = String(processID)
        return log.withLock { $0.sightings.first { $0.processID == pid && $0.sink == index && $0.at >= instant }?.at }
    }

    /// Ends the connection (and ``follow()``).
    func shutdown() {
        client.shutdown()
    }

    private func record(_ stream: SinkInputInfo, at instant: ContinuousClock.Instant) {
        guard let pid = stream.properties["application.process.id"], processIDs.contains(pid) else { return }
        let sighting = Sighting(at: instant, stream: stream.index, processID: pid, sink: stream.sink, isMuted: stream.isMuted)
        log.withLock { $0.sightings.append(sighting) }
    }
}
