import ConcurrencySupport
import PulseAudio

extension StreamCallDetector {
    /// Follows the server's sink inputs and source outputs: a removal is passed on at once
    /// (it needs no reading), a stream that appears or changes is read a moment later
    /// (``ServerFollowing/quietReadDelay``), once per burst of its events, with the other
    /// reads due then, side by side. Everything is read again when the connection comes back.
    func followServer(into queue: InputQueue<CallDetectionInput>) async {
        let events = server.events()
        let pending = PendingStreamReads()
        await readEverything(into: queue)
        await withDiscardingTaskGroup { reads in
            var place: UInt64 = 0
            for await event in events {
                place += 1
                switch event {
                case .connectionStateChanged(.ready):
                    reads.addTask { await self.readEverything(into: queue) }
                case .connectionStateChanged:
                    break
                case .subscription(let change):
                    guard let key = Self.key(of: change) else { break }
                    if change.kind == .remove {
                        queue.push(.removed(key, order: place))
                    } else if pending.add(key, place: place) {
                        reads.addTask {
                            try? await Task.sleep(for: ServerFollowing.quietReadDelay)
                            await withDiscardingTaskGroup { batch in
                                for (key, place) in pending.take() {
                                    batch.addTask { await self.read(key, place: place, into: queue) }
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

    private func read(_ key: CallStream.Key, place: UInt64, into queue: InputQueue<CallDetectionInput>) async {
        do {
            let stream: CallStream? = switch key.direction {
            case .playback: try await server.sinkInput(at: key.index).map(CallStream.init)
            case .capture: try await server.sourceOutput(at: key.index).map(CallStream.init)
            }
            queue.push(stream.map { .stream($0, order: place) } ?? .removed(key, order: place))
        } catch {
            // The connection went; its return reads everything again.
        }
    }

    private func readEverything(into queue: InputQueue<CallDetectionInput>) async {
        do {
            async let playback = server.sinkInputs()
            async let capture = server.sourceOutputs()
            queue.push(.reset(try await playback.map(CallStream.init) + capture.map(CallStream.init)))
        } catch {
            // Not connected: the connection's return brings another reading.
        }
    }
}
