import PulseAudio
import RouteKit

extension MediaGuard {
    /// Follows the server's sinks, streams and default: removals are passed on at once (they
    /// are what exposes a stream, and need no reading), appearances and changes once read,
    /// each read running beside the others so that none waits behind another.
    func followServer(into queue: InputQueue<MediaInput>) async {
        let events = server.events()
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
                    if change.kind == .remove {
                        switch change.facility {
                        case .sink: queue.push(.sinkRemoved(change.index, order: place))
                        case .sinkInput: queue.push(.streamRemoved(change.index, order: place))
                        default: break
                        }
                    } else if change.facility == .sink, change.kind == .new {
                        // A new sink matters only once media plays on it: its read waits until
                        // the switch its arrival may cause is done, rather than keep the server
                        // busy then.
                        lookups.addTask { [place] in
                            try? await Task.sleep(for: Self.newSinkReadDelay)
                            await self.read(change, place: place, into: queue)
                        }
                    } else if [.sink, .sinkInput, .server].contains(change.facility) {
                        lookups.addTask { [place] in await self.read(change, place: place, into: queue) }
                    }
                }
            }
        }
    }

    /// How long the read of a new sink waits: long enough for the route switch its arrival
    /// may cause (about a millisecond) to be done first. Changes (a jack pulled) and the
    /// default are read at once: muting depends on them.
    static let newSinkReadDelay = Duration.milliseconds(5)

    private func read(_ change: SubscriptionEvent, place: UInt64, into queue: InputQueue<MediaInput>) async {
        do {
            switch change.facility {
            case .sink:
                if let sink = try await server.sink(at: change.index) {
                    queue.push(.sink(sink, order: place))
                } else {
                    queue.push(.sinkRemoved(change.index, order: place))
                }
            case .sinkInput:
                if let stream = try await server.sinkInput(at: change.index) {
                    queue.push(.stream(stream, order: place))
                } else {
                    queue.push(.streamRemoved(change.index, order: place))
                }
            case .server:
                queue.push(.defaultSink(try await server.serverInfo().defaultSinkName, order: place))
            default:
                break
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
