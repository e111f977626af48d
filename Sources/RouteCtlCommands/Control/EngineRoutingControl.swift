import PulseAudio
import RouteKit

/// routectl's commands carried out inside the daemon, on its running engine: what the
/// daemon's D-Bus API calls for `Use`, `SetPreferences`, `ClearPreferences`, `StartCall`,
/// `EndCall`, `EnableSpeaker`, `MuteMic` and `Status`. Preferences set here are kept in the
/// state file (``DaemonPreferences``), so that they outlive a restart; `clearPreferences`
/// brings back the configured ones.
struct EngineRoutingControl: RoutingControl {
    /// The running engine.
    let manager: AudioDeviceManager
    /// The preference list and its state file.
    let preferences: DaemonPreferences
    /// The engine's server, for the microphone's mute.
    let server: any SourceMutingServer

    /// The daemon.
    var answerer: RoutingAnswerer { .daemon }

    /// Chooses the device by hand, kept while it is present.
    func use(_ target: String) async throws -> AudioDevice {
        let device = try DeviceChoice.resolve(target, among: try await manager.allDevices, route: manager.selectedAudioDevice,
                                              automatic: manager.automaticChoice)
        try await select(device.id)
        return manager.selectedAudioDevice ?? device
    }

    /// Lets go of the device chosen by hand.
    func clearSelection() async throws -> Bool {
        guard manager.manualSelection != nil else { return false }
        try await select(nil)
        return true
    }

    /// Sets the run-time preferences, keeps them, and applies them.
    func setPreferences(_ entries: [String]) async throws {
        let list = try Self.parse(entries)
        await preferences.setRunTime(list)
        await preferences.apply(to: manager)
    }

    /// Forgets the run-time preferences: the configured ones apply again.
    func clearPreferences() async throws {
        await preferences.setRunTime(nil)
        await preferences.apply(to: manager)
    }

    /// The engine's call audio.
    func setCallAudio(_ isOn: Bool) async throws -> Bool {
        guard manager.isCallAudioActive != isOn else { return false }
        if isOn { await manager.activateCallAudio() } else { await manager.deactivateCallAudio() }
        return true
    }

    /// On: a speakerphone chosen by hand; off: a speakerphone chosen by hand is let go, and
    /// the preferences decide again.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice? {
        if isOn { return try await use(AudioDeviceKind.speakerphone.rawValue) }
        let devices = try await manager.allDevices
        if let selection = manager.manualSelection, devices.first(where: { $0.id == selection })?.kind == .speakerphone {
            try await select(nil)
        }
        return manager.selectedAudioDevice
    }

    /// The default source's mute.
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String {
        try await MicrophoneMute.set(isMuted, on: server)
    }

    /// The engine's state, with the default source and where the preferences come from.
    func status() async throws -> RoutingStatus {
        let state = manager.state
        let view = try await ServerView.read(from: server)
        let source = view.defaultSource
        return RoutingStatus(
            answerer: .daemon, output: state.route, inputSource: source?.name,
            inputDevice: source.flatMap { source in state.devices.first { $0.input?.deviceName == source.name } },
            why: RouteExplanation.why(route: state.route, preferences: state.preferences.ordered, selection: state.selection,
                                      answerer: .daemon, isYielding: state.isYielding),
            preferences: state.preferences.ordered.map(\.description), preferencesOrigin: await preferences.origin,
            selection: state.selection?.rawValue, isCallAudioOn: state.isCallAudioActive, isMicrophoneMuted: source?.isMuted)
    }

    /// Entries as kinds and device ids; a misspelled kind is refused (exit 64).
    static func parse(_ entries: [String]) throws(RouteCtlFailure) -> [AudioPreference] {
        var list: [AudioPreference] = []
        for entry in entries {
            do {
                list.append(try PreferenceText.read(entry))
            } catch {
                throw .invalidChoice(PreferenceText.message(error) { "routectl prefer \($0)" })
            }
        }
        return list
    }

    private func select(_ device: AudioDevice.ID?) async throws {
        do {
            try await manager.select(device)
        } catch {
            throw RouteCtlFailure.noSuchDevice("\(error).\n" + DeviceChoice.choices((try? await manager.allDevices) ?? []))
        }
    }
}
