import ConcurrencySupport
import PulseAudio

extension StreamCallDetector {
    /// Follows the server's sink inputs and source outputs: a removal is passed on at once
    /// (it needs no reading), a stream that appears or changes is read a moment later
    /// (``ServerFollowing/quietReadDelay``), once per burst of its events, with the other
    /// reads due then (playback and capture side by side, each as one list when many:
    /// ``StreamBatchReading``); one reading at a time, the streams announced while it runs
    /// read a moment after it. Everything is read again when the connection comes back.
    func followServer(_ server: any AudioServer, into queue: InputQueue<CallDetectionInput>) async {
        let events = server.events()
        let pending = ReadingLane<CallStream.Key>()
        await Self.readEverything(server, into: queue)
        await withDiscardingTaskGroup { reads in
            var place: UInt64 = 0
            for await event in events {
                place += 1
                switch event {
                case .connectionStateChanged(.ready):
                    reads.addTask { await Self.readEverything(server, into: queue) }
                case .connectionStateChanged:
                    break
                case .subscription(let change):
                    guard let key = Self.key(of: change) else { break }
                    if change.kind == .remove {
                        queue.push(.removed(key, order: place))
                    } else if pending.add(key, place: place) {
                        reads.addTask {
                            // One reading at a time: the streams announced while it runs wait
                            // for the next, a moment after it.
                            while (try? await Task.sleep(for: ServerFollowing.quietReadDelay)) != nil {
                                let due = pending.next()
                                if due.isEmpty { break }
                                await withDiscardingTaskGroup { batch in
                                    for direction in [CallStream.Direction.playback, .capture] {
                                        let asked = due.filter { $0.key.direction == direction }
                                        guard !asked.isEmpty else { continue }
                                        batch.addTask { await Self.read(direction, asked, on: server, into: queue) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The stream an event is about; nil for other facilities.
    private static func key(of change: SubscriptionEvent) -> CallStream.Key? {
        switch change.facility {
        case .sinkInput: CallStream.Key(.playback, change.index)
        case .sourceOutput: CallStream.Key(.capture, change.index)
        default: nil
        }
    }

    /// Reads the streams of `direction` that `reads` names, each answer placed at its newest event.
    private static func read(_ direction: CallStream.Direction, _ reads: [(key: CallStream.Key, place: UInt64)],
                             on server: any AudioServer, into queue: InputQueue<CallDetectionInput>) async {
        do {
            let read: [(index: UInt32, stream: CallStream?)] = switch direction {
            case .playback:
                try await StreamBatchReading.read(reads.map(\.key.index), index: \SinkInputInfo.index,
                                                  lookup: { try await server.sinkInput(at: $0) },
                                                  list: { try await server.sinkInputs() }).map { ($0.index, $0.stream.map(CallStream.init)) }
            case .capture:
                try await StreamBatchReading.read(reads.map(\.key.index), index: \SourceOutputInfo.index,
                                                  lookup: { try await server.sourceOutput(at: $0) },
                                                  list: { try await server.sourceOutputs() }).map { ($0.index, $0.stream.map(CallStream.init)) }
            }
            for ((key, place), (_, stream)) in zip(reads, read) {
                queue.push(stream.map { .stream($0, order: place) } ?? .removed(key, order: place))
            }
        } catch {
            // The connection went; its return reads everything again.
        }
    }

    private static func readEverything(_ server: any AudioServer, into queue: InputQueue<CallDetectionInput>) async {
        do {
            async let playback = server.sinkInputs()
            async let capture = server.sourceOutputs()
            queue.push(.reset(try await playback.map(CallStream.init) + capture.map(CallStream.init)))
        } catch {
            // Not connected: the connection's return brings another reading.
        }
    }
}
