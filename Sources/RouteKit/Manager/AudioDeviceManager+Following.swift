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
        case .subscription(let subscription) where subscription.kind == .new:
            guard case .application(let selector) = scope, let target = applicationTarget else { return }
            switch subscription.facility {
            case .sinkInput: await follow(sinkInput: subscription.index, selector: selector, target: target)
            case .sourceOutput: await follow(sourceOutput: subscription.index, selector: selector, target: target)
            default: return
            }
        default:
            return
        }
    }

    private func follow(sinkInput index: UInt32, selector: StreamSelector, target: AudioDevice) async {
        guard let sink = target.output?.deviceName,
              let stream = try? await server.sinkInput(at: index), selector.matches(stream.properties) else { return }
        let from = await deviceList.sink(at: stream.sink)?.name
        guard from != sink else { return }
        ledger.noteMove(stream: index, output: true, name: stream.name, client: stream.client, from: from, to: sink)
        do { try await server.moveSinkInput(index, toSink: sink) } catch {
            logger.warning("new stream not moved", metadata: ["stream": "\(index)", "error": "\(error)"])
        }
    }

    private func follow(sourceOutput index: UInt32, selector: StreamSelector, target: AudioDevice) async {
        guard let source = target.input?.deviceName,
              let stream = try? await server.sourceOutput(at: index), selector.matches(stream.properties),
              let from = await deviceList.source(at: stream.source), !from.isMonitor, from.name != source else { return }
        ledger.noteMove(stream: index, output: false, name: stream.name, client: stream.client, from: from.name, to: source)
        do { try await server.moveSourceOutput(index, toSource: source) } catch {
            logger.warning("new recording not moved", metadata: ["stream": "\(index)", "error": "\(error)"])
        }
    }
}
