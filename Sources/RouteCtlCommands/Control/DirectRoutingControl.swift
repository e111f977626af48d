import PulseAudio
import RouteKit
import RouteKitDaemon

/// routectl's commands with no daemon running: each is one run of the engine
/// (``AudioDeviceManager/perform(_:on:remembering:profileTimeout:logger:)``), the same route
/// machine the daemon runs, started for the command and ended once the server confirmed it,
/// leaving its change in place. Nothing stays behind to follow the server (a headset plugged
/// in later is not routed to: that is the daemon's work) but the engine's memory
/// (``CallRecordStore``): call audio, the call's speaker toggle and choice, the microphone's
/// mute, and what the call changed, so that the next command, `call end` above all, goes on
/// from there.
struct DirectRoutingControl: RoutingControl {
    /// The server.
    let server: any AudioServer
    /// Where the engine's memory is kept between commands; nil without `XDG_RUNTIME_DIR`
    /// (then `call` refuses, and nothing is remembered).
    let callRecords: CallRecordStore?
    /// The preferences the daemon would use, shown by `status`.
    var displayedPreferences: (entries: [String], origin: PreferenceOrigin) = ([], .none)

    /// No daemon: the server itself.
    var answerer: RoutingAnswerer { .soundServer }

    /// The engine's `select`, once: nothing keeps the choice when devices change later.
    func use(_ target: String) async throws -> AudioDevice {
        let view = try await ServerView.read(from: server)
        let device = try DeviceChoice.resolve(target, among: view.devices, route: view.route)
        let result: OneShotOutcome
        do {
            result = try await perform(.select(device.id))
        } catch let error as SelectionError {
            throw RouteCtlFailure.noSuchDevice("\(error).\n" + DeviceChoice.choices(view.devices))
        }
        guard let route = result.outcome.route, route.id == device.id else {
            throw Self.failure(result.outcome, doing: "switch to \(device.id)")
        }
        return route
    }

    /// Nothing is kept without the daemon: there is no choice to let go of.
    func clearSelection() async throws -> Bool { false }

    /// Preferences are the daemon's: refused.
    func setPreferences(_ entries: [String]) async throws {
        throw RouteCtlFailure.needsDaemon(PreferCommand.needsDaemonMessage)
    }

    /// Preferences are the daemon's: refused.
    func clearPreferences() async throws {
        throw RouteCtlFailure.needsDaemon(PreferCommand.needsDaemonMessage)
    }

    /// The engine's call audio: on, the call list routes (a Bluetooth headset in its headset
    /// profile); off, the engine puts back what the call changed, from its memory.
    func setCallAudio(_ isOn: Bool) async throws -> Bool {
        guard callRecords != nil else {
            throw RouteCtlFailure.needsDaemon("""
                call audio without the daemon is recorded under XDG_RUNTIME_DIR, which is unset; \
                start 'routectl daemon', or set XDG_RUNTIME_DIR.
                """)
        }
        return try await perform(.callAudio(isOn)).changedState
    }

    /// The engine's speaker toggle: on, a speakerphone; off, the best device of the call list
    /// that is not one. Returns the route after.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice? {
        try await perform(.setSpeaker(isOn ? .on : .off)).outcome.route
    }

    /// The engine's microphone mute: the source the route records from, never a monitor.
    /// Returns its name ("the default source" when nothing is recorded from).
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String {
        let outcome = try await perform(.muteMicrophone(isMuted)).outcome
        if outcome.failures.contains(where: { $0.step == .microphone }) {
            throw Self.failure(outcome, doing: isMuted ? "mute the microphone" : "unmute the microphone")
        }
        return outcome.microphone ?? "the default source"
    }

    /// The server's defaults, as no daemon routes.
    func status() async throws -> RoutingStatus {
        let view = try await ServerView.read(from: server)
        let source = view.defaultSource
        return RoutingStatus(
            answerer: .soundServer, output: view.route, inputSource: source?.name,
            inputDevice: source.flatMap { source in view.devices.first { $0.input?.deviceName == source.name } },
            why: RouteExplanation.why(route: view.route, preferences: [], selection: nil, answerer: .soundServer),
            preferences: displayedPreferences.entries, preferencesOrigin: displayedPreferences.origin, selection: nil,
            isCallAudioOn: callRecords?.read().isCallAudioOn ?? false, isMicrophoneMuted: source?.isMuted)
    }

    /// One run of the engine with the memory the last one left; keeps what it leaves. A
    /// refusal is a failure a person can act on (67, listing the devices).
    private func perform(_ command: OneShotCommand) async throws -> OneShotOutcome {
        let memory = callRecords?.read() ?? RouteMemory()
        let result: OneShotOutcome
        do {
            result = try await AudioDeviceManager.perform(command, on: server, remembering: memory, profileTimeout: Self.timeout)
        } catch let refusal as CommandRefusal {
            throw RouteCtlFailure.noSuchDevice(refusal.description)
        }
        if let callRecords, result.memory != memory {
            if result.memory.isEmpty { try callRecords.remove() } else { try callRecords.write(result.memory) }
        }
        return result
    }

    /// How long a card may take to bring up a profile, and the server to show a new default.
    static let timeout: Duration = .seconds(5)

    /// What the server refused on the way, as a failed request (70).
    private static func failure(_ outcome: CommandOutcome, doing what: String) -> RouteCtlFailure {
        let last = outcome.failures.last
        return .requestFailed(PulseError(last?.code ?? .timeout, operation: what,
                                         reason: last?.message ?? "the server did not confirm it in time"))
    }
}
