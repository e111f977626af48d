import ConcurrencySupport
import PulseAudio
import RouteKit
import Synchronization

extension MediaGuard {
    /// Follows the server's sinks, streams and default: removals are passed on at once (they
    /// are what exposes a stream, and need no reading), streams and the sinks media plays on
    /// are read at once (a sink beside the others; streams one reading at a time, those
    /// announced meanwhile together after it: `ReadingLane`), and the rest a moment later,
    /// also one reading at a time, each object once for its newest event (``ServerReading``).
    func followServer(into queue: InputQueue<MediaInput>) async {
        let events = server.events()
        let quiet = ReadingLane<ServerObject>()
        let streams = ReadingLane<UInt32>()
        await readEverything(into: queue)
        await withDiscardingTaskGroup { lookups in
            var place: UInt64 = 0
            for await event in events {
                place += 1
                switch event {
                case .connectionStateChanged(.ready):
                    lookups.addTask { await self.readEverything(into: queue) }
                case .connectionStateChanged:
                    break
                case .subscription(let change):
                    switch ServerReading.of(change, playingSinks: playingSinks.withLock { $0 }) {
                    case .removal?:
                        queue.push(change.facility == .sink ? .sinkRemoved(change.index, order: place)
                                                            : .streamRemoved(change.index, order: place))
                    case .now? where change.facility == .sinkInput:
                        guard streams.add(change.index, place: place) else { break }
                        lookups.addTask {
                            var due = streams.next()
                            while !due.isEmpty {
                                await self.readStreams(due, into: queue)
                                due = streams.next()
                            }
                        }
                    case .now?:
                        lookups.addTask { [place] in await self.read(ServerObject(change), place: place, into: queue) }
                    case .later?:
                        guard quiet.add(ServerObject(change), place: place) else { break }
                        lookups.addTask {
                            // A burst of changes (a volume slider dragged) costs one read per
                            // object; those announced while it runs wait for the next.
                            while (try? await Task.sleep(for: ServerFollowing.quietReadDelay)) != nil {
                                let due = quiet.next()
                                if due.isEmpty { break }
                                await withDiscardingTaskGroup { reads in
                                    for (object, place) in due {
                                        reads.addTask { await self.read(object, place: place, into: queue) }
                                    }
                                }
                            }
                        }
                    case nil:
                        break
                    }
                }
            }
        }
    }

    private func read(_ object: ServerObject, place: UInt64, into queue: InputQueue<MediaInput>) async {
        do {
            switch object {
            case .sink(let index):
                if let sink = try await server.sink(at: index) {
                    queue.push(.sink(sink, order: place))
                } else {
                    queue.push(.sinkRemoved(index, order: place))
                }
            case .stream(let index):
                if let stream = try await server.sinkInput(at: index) {
                    queue.push(.stream(stream, order: place))
                } else {
                    queue.push(.streamRemoved(index, order: place))
                }
            case .server:
                queue.push(.defaultSink(try await server.serverInfo().defaultSinkName, order: place))
            }
        } catch {
            // The connection went; its return reads everything again.
        }
    }

    /// Reads the streams `due` names, each answer placed at its newest event.
    private func readStreams(_ due: [(key: UInt32, place: UInt64)], into queue: InputQueue<MediaInput>) async {
        do {
            let server = self.server
            let read = try await StreamBatchReading.read(due.map(\.key), index: \SinkInputInfo.index,
                                                         lookup: { try await server.sinkInput(at: $0) },
                                                         list: { try await server.sinkInputs() })
            for ((index, place), (_, stream)) in zip(due, read) {
                queue.push(stream.map { .stream($0, order: place) } ?? .streamRemoved(index, order: place))
            }
        } catch {
            // The connection went; its return reads everything again.
        }
    }

    private func readEverything(into queue: InputQueue<MediaInput>) async {
        do {
            async let sinks = server.sinks()
            async let streams = server.sinkInputs()
            async let info = server.serverInfo()
            queue.push(.reset(sinks: try await sinks, streams: try await streams, defaultSink: try await info.defaultSinkName))
        } catch {
            // Not connected: the connection's return brings another reading.
        }
    }
}
