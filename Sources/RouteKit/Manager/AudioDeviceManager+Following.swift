import Logging
import PulseAudio

/// Following the server: device changes become passes, new streams in application scope
/// are moved as they appear.
extension AudioDeviceManager {
    /// A change from the device list: announce it, then ask for a pass. The pass names the
    /// reason itself, from what it sees changed since the last one.
    func deviceListChanged(_ change: DeviceList.Change) async {
        guard isRunning else { return }
        // Arrival order from the changes themselves: a device removed and added again before
        // a pass sees it gone still counts as just connected.
        for id in change.added.sorted(by: { $0.rawValue < $1.rawValue }) {
            arrivals[id] = nextArrival
            nextArrival += 1
        }
        let devicesChanged = !change.added.isEmpty || !change.removed.isEmpty || !change.changed.isEmpty
        if devicesChanged {
            emit(.devicesChanged(await deviceList.devices.filter { $0.availability != .unavailable }))
        }
        requestReconcile(devicesChanged ? .deviceChanged : .changedElsewhere)
    }

    /// A raw server event: reconnections, and in application scope new streams.
    func serverEvent(_ event: PulseEvent) async {
        guard isRunning else { return }
        switch event {
        case .connectionStateChanged(.ready):
            requestReconcile(.reconnected)
        case .subscription(let subscription) where subscription.facility == .sinkInput || subscription.facility == .sourceOutput:
            guard case .application(let selector) = scope else { return }
            await follow(subscription, selector: selector)
        default:
            return
        }
    }

    /// In application scope: a selected stream that starts, or that something else moves
    /// (WirePlumber linking a new stream to the default a moment after it appeared), is put
    /// on the route. Streams the selector does not match are looked up once, when they start.
    private func follow(_ event: SubscriptionEvent, selector: StreamSelector) async {
        let output = event.facility == .sinkInput
        switch event.kind {
        case .remove:
            followedStreams.remove(StreamKey(index: event.index, output: output))
            return
        case .change:
            guard followedStreams.contains(StreamKey(index: event.index, output: output)) else { return }
        case .new:
            break
        }
        if output {
            guard let stream = try? await server.sinkInput(at: event.index), selector.matches(stream.properties) else { return }
            followedStreams.insert(StreamKey(index: event.index, output: true))
            guard let sink = applicationTarget?.output?.deviceName else { return }
            let from = await deviceList.sink(at: stream.sink)?.name
            guard from != sink else { return }
            ledger.noteMove(stream: stream.index, output: true, name: stream.name, client: stream.client, from: from, to: sink)
            do { try await server.moveSinkInput(stream.index, toSink: sink) } catch {
                logger.warning("stream not moved", metadata: ["stream": "\(stream.index)", "error": "\(error)"])
            }
        } else {
            guard let stream = try? await server.sourceOutput(at: event.index), selector.matches(stream.properties) else { return }
            followedStreams.insert(StreamKey(index: event.index, output: false))
            guard let source = applicationTarget?.input?.deviceName,
                  let from = await deviceList.source(at: stream.source), !from.isMonitor, from.name != source else { return }
            ledger.noteMove(stream: stream.index, output: false, name: stream.name, client: stream.client, from: from.name, to: source)
            do { try await server.moveSourceOutput(stream.index, toSource: source) } catch {
                logger.warning("recording not moved", metadata: ["stream": "\(stream.index)", "error": "\(error)"])
            }
        }
    }
}

/// A stream an application-scoped manager keeps on the route.
struct StreamKey: Hashable, Sendable {
    var index: UInt32
    var output: Bool
}
