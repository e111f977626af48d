import Logging
import PulseAudio

/// The steps of one switch: profile, ports, defaults (system scope), streams, then reading
/// back what the server did. Each step's change is written in the ledger first, so that
/// ``AudioDeviceManager/stop()`` can put it back.
extension AudioDeviceManager {
    /// The card profile `device` needs now: its call profile while call audio is on (so its
    /// microphone works), else the profile that offers its output; nil when the active one does.
    func profileToSelect(for device: AudioDevice) -> String? {
        if isCallAudioActive, let callProfile = device.callProfile {
            let carriesBoth = device.output?.deviceName != nil && device.input?.deviceName != nil
            return carriesBoth && device.output?.profile == callProfile ? nil : callProfile
        }
        return device.requiredProfile
    }

    /// Switches to `candidate` and returns it as the server now shows it.
    func switchRoute(to candidate: AudioDevice) async throws(SwitchFailure) -> AudioDevice {
        logger.debug("switching", metadata: ["device": "\(candidate.id)", "call": "\(isCallAudioActive)"])
        var device = candidate
        if let profile = profileToSelect(for: device), let card = device.card {
            device = try await selectProfile(profile, card: card, for: device)
        }
        guard let sink = device.output?.deviceName else {
            throw SwitchFailure(step: .profile, message: "\(device.id) has no sink in the card's active profile")
        }
        let source = device.input?.deviceName
        if let port = device.output?.port {
            try await selectPort(port, of: sink, output: true)
        }
        if let source, let port = device.input?.port {
            try await selectPort(port, of: source, output: false)
        }
        switch scope {
        case .system:
            let changes = await deviceList.changes()
            // Where the streams are before the default moves: WirePlumber moves the streams
            // that follow the default by itself, and stop() must still know where they were.
            let origins = await streamLocations()
            try await makeDefault(sink: sink, source: source)
            await moveStreams(toSink: sink, source: source, selector: nil, origins: origins)
            try await confirmDefault(sink: sink, changes: changes)
            device.isActive = true
        case .application(let selector):
            // The target first: the moves below raise change events for the followed streams,
            // which follow() handles meanwhile and must not send back to the old target.
            applicationTarget = device
            await moveStreams(toSink: sink, source: source, selector: selector)
        }
        return device
    }

    // MARK: Steps

    private func selectProfile(_ profile: String, card: String, for device: AudioDevice) async throws(SwitchFailure) -> AudioDevice {
        let original = await deviceList.card(named: card)?.activeProfileName
        let changes = await deviceList.changes()
        try await perform(.profile) { try await $0.setCardProfile(card, profile: profile) }
        if let original, original != profile {
            ledger.noteProfile(card: card, original: original, selected: profile)
            if isCallAudioActive { call.cards.insert(card) }
        }
        let inCall = isCallAudioActive
        let ready = await awaitDevice(device.id, changes: changes) { device in
            guard device.output?.deviceName != nil, device.output?.profile == profile else { return false }
            return !inCall || device.input == nil || device.input?.deviceName != nil
        }
        logger.debug("profile selected", metadata: ["card": "\(card)", "profile": "\(profile)", "ready": "\(ready != nil)"])
        guard let ready else {
            throw SwitchFailure(step: .profile, message: "profile \"\(profile)\" of \(card) brought up no sink for \(device.id) in time")
        }
        return ready
    }

    private func selectPort(_ port: String, of device: String, output: Bool) async throws(SwitchFailure) {
        let current = output ? await deviceList.sink(named: device)?.activePortName
            : await deviceList.source(named: device)?.activePortName
        guard current != port else { return }
        if let current { ledger.notePort(device: device, output: output, original: current, selected: port) }
        try await perform(.port) { server in
            if output { try await server.setSinkPort(device, port: port) } else { try await server.setSourcePort(device, port: port) }
        }
    }

    private func makeDefault(sink: String, source: String?) async throws(SwitchFailure) {
        ledger.noteDefaultSink(sink)
        try await perform(.defaultSink) { try await $0.setDefaultSink(sink) }
        if let source, source != (await deviceList.defaultSourceName) {
            ledger.noteDefaultSource(source)
            try await perform(.defaultSource) { try await $0.setDefaultSource(source) }
        }
    }

    /// Where each playback and recording stream is now (sink and source indexes).
    private func streamLocations() async -> (playback: [UInt32: UInt32], recording: [UInt32: UInt32]) {
        let playback = (try? await server.sinkInputs()) ?? []
        let recording = (try? await server.sourceOutputs()) ?? []
        return (Dictionary(playback.map { ($0.index, $0.sink) }) { first, _ in first },
                Dictionary(recording.map { ($0.index, $0.source) }) { first, _ in first })
    }

    /// Moves the streams in scope that are elsewhere; a stream that cannot move (it ended,
    /// or it asked never to be moved) is logged, not a failed switch. `origins` says where
    /// streams were before the switch began: a stream the server already moved along with
    /// the default is written in the ledger as coming from there, so that stop() puts it back.
    func moveStreams(toSink sink: String, source: String?, selector: StreamSelector?,
                     origins: (playback: [UInt32: UInt32], recording: [UInt32: UInt32]) = ([:], [:])) async {
        let sinkIndex = await deviceList.sink(named: sink)?.index
        var sourceIndex: UInt32?
        if let source { sourceIndex = await deviceList.source(named: source)?.index }
        let playback = (try? await server.sinkInputs()) ?? []
        var moves: [(index: UInt32, output: Bool)] = []
        if selector != nil {
            for stream in playback where selector?.matches(stream.properties) == true {
                followedStreams.insert(StreamKey(index: stream.index, output: true))
            }
        }
        for stream in playback where selector?.matches(stream.properties) ?? true {
            let origin = origins.playback[stream.index] ?? stream.sink
            guard origin != sinkIndex || stream.sink != sinkIndex else { continue }
            let from = await deviceList.sink(at: origin)?.name
            ledger.noteMove(stream: stream.index, output: true, name: stream.name, client: stream.client,
                            from: from, to: sink)
            if stream.sink != sinkIndex { moves.append((stream.index, true)) }
        }
        if let source {
            let recording = (try? await server.sourceOutputs()) ?? []
            for stream in recording where selector?.matches(stream.properties) == true {
                followedStreams.insert(StreamKey(index: stream.index, output: false))
            }
            for stream in recording where selector?.matches(stream.properties) ?? true {
                let origin = origins.recording[stream.index] ?? stream.source
                guard origin != sourceIndex || stream.source != sourceIndex,
                      let from = await deviceList.source(at: origin), !from.isMonitor else { continue }
                ledger.noteMove(stream: stream.index, output: false, name: stream.name, client: stream.client,
                                from: from.name, to: source)
                if stream.source != sourceIndex { moves.append((stream.index, false)) }
            }
        }
        guard !moves.isEmpty else { return }
        let server = self.server, logger = self.logger
        await withTaskGroup(of: Void.self) { group in
            for move in moves {
                group.addTask {
                    do {
                        if move.output { try await server.moveSinkInput(move.index, toSink: sink) }
                        else if let source { try await server.moveSourceOutput(move.index, toSource: source) }
                    } catch let error as PulseError where error.code == .noSuchEntity {
                        logger.debug("stream ended before it could move", metadata: ["stream": "\(move.index)"])
                    } catch {
                        logger.warning("stream not moved", metadata: ["stream": "\(move.index)", "error": "\(error)"])
                    }
                }
            }
        }
    }

    /// Waits until the server reports `sink` as the default: a switch counts when the server
    /// says it happened. PulseAudio says so at once; on PipeWire the default changes when
    /// WirePlumber has acted on the request, a moment after pipewire-pulse answered it.
    private func confirmDefault(sink: String, changes: AsyncStream<DeviceList.Change>) async throws(SwitchFailure) {
        let deviceList = self.deviceList
        let confirmed = await waitOnDeviceList(changes, timeout: profileTimeout) { change -> Bool? in
            guard change?.defaultsChanged ?? true else { return nil }
            return await deviceList.defaultSinkName == sink ? true : nil
        } ?? false
        // The device list may still show a sink the server has just removed: one read settles it.
        let info = try await perform(.verification) { try await $0.serverInfo() }
        guard confirmed, info.defaultSinkName == sink else {
            let kept = confirmed ? info.defaultSinkName : await deviceList.defaultSinkName
            throw SwitchFailure(step: .verification,
                                message: "the server kept \(kept.map { "\"\($0)\"" } ?? "no sink") as the default instead of \"\(sink)\"")
        }
    }

    /// Runs one request, turning what it throws into a ``SwitchFailure`` of `step`.
    private func perform<Value: Sendable>(_ step: SwitchFailure.Step,
                                          _ request: @Sendable (any AudioServer) async throws -> Value) async throws(SwitchFailure) -> Value {
        do {
            return try await request(server)
        } catch let error as PulseError {
            throw SwitchFailure(step: step, code: error.code, message: "\(error.operation): \(error.reason)")
        } catch {
            throw SwitchFailure(step: step, message: "\(error)")
        }
    }

    /// Waits until the device list shows `id` satisfying `isReady`, for at most the profile
    /// timeout. `changes` must be subscribed before the request that leads there.
    func awaitDevice(_ id: AudioDevice.ID, changes: AsyncStream<DeviceList.Change>,
                     until isReady: @escaping @Sendable (AudioDevice) -> Bool) async -> AudioDevice? {
        let deviceList = self.deviceList
        let outcome: AudioDevice?? = await waitOnDeviceList(changes, timeout: profileTimeout) { change in
            if let change {
                if change.removed.contains(id) { return .some(nil) }
                guard change.added.contains(id) || change.changed.contains(id) else { return nil }
            }
            guard let device = await deviceList.device(id), isReady(device) else { return nil }
            return .some(device)
        }
        return outcome ?? nil
    }
}
