import PulseAudio
import RouteKit
import RouteKitDaemon

/// routectl's commands carried out on a running engine in this process, as the daemon
/// carries them out for its D-Bus API (which performs them with RouteKitDBus's
/// `EngineDriver`, choosing devices with the same `DeviceTarget`). Preferences go through
/// ``DaemonPreferences`` here and there alike (the API through ``StateFilePreferenceKeeper``):
/// kept in the state file, so that they outlive a restart; `clearPreferences` brings back
/// the configured ones.
struct EngineRoutingControl: RoutingControl {
    /// The running engine.
    let manager: AudioDeviceManager
    /// The preference list and its state file.
    let preferences: DaemonPreferences
    /// The engine's server, for the default source `status` shows.
    let server: any AudioServer

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

    /// The engine's speaker toggle, as the daemon's `EnableSpeaker`: on, a speakerphone; off,
    /// the best device of the call list that is not one. Returns the route after.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice? {
        do {
            return try await manager.setSpeaker(isOn ? .on : .off).route
        } catch {
            throw RouteCtlFailure.noSuchDevice(error.description)
        }
    }

    /// The engine's microphone mute, as the daemon's `MuteMic`: the source the route records
    /// from. Returns its name ("the default source" when nothing is recorded from).
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String {
        do {
            return try await manager.setMicrophoneMuted(isMuted).microphone ?? "the default source"
        } catch {
            throw RouteCtlFailure.noSuchDevice(error.description)
        }
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
            preferences: state.preferences.ordered.map(\.description), preferencesOrigin: preferences.origin,
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

extension DaemonStartup {
    /// The commands' way into an engine running in this process, with this startup's
    /// preferences (kept across restarts), as the daemon's D-Bus API drives its own.
    func routingControl(manager: AudioDeviceManager, server: any AudioServer) -> EngineRoutingControl {
        EngineRoutingControl(manager: manager, preferences: preferences, server: server)
    }
}
