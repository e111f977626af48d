import Logging
import PulseAudio

/// Following the server: device changes become passes, new streams in application scope
/// are moved as they appear.
extension AudioDeviceManager {
    /// A change from the device list: announce it, then ask for a pass with the reason it gives.
    func deviceListChanged(_ change: DeviceList.Change) async {
        guard isRunning else { return }
        let devices = await deviceList.devices
        let before = devicesByID
        remember(devices)
        if !change.added.isEmpty || !change.removed.isEmpty || !change.changed.isEmpty {
            emit(.devicesChanged(devices.filter { $0.availability != .unavailable }))
        }
        requestReconcile(reason(for: change, before: before))
    }

    private func reason(for change: DeviceList.Change, before: [AudioDevice.ID: AudioDevice]) -> RouteChangeReason {
        if let route = selectedAudioDevice?.id {
            if change.removed.contains(route) { return .deviceFailed }
            if let now = devicesByID[route], !RoutePolicy.isUsable(now) { return .deviceFailed }
        }
        let becameUsable = change.changed.contains { id in
            guard let now = devicesByID[id], RoutePolicy.isUsable(now) else { return false }
            return before[id].map { !RoutePolicy.isUsable($0) } ?? true
        }
        if !change.added.isEmpty || becameUsable { return .deviceAppeared }
        if !change.removed.isEmpty || !change.changed.isEmpty { return .deviceChanged }
        return .changedElsewhere
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
