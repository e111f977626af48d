import DBus
import PulseAudio
import RouteKit

/// Performs ``EngineOperation``s on the manager for a calling client: the one place where a
/// D-Bus call changes anything.
public struct EngineDriver: Sendable {
    /// The engine.
    public let manager: AudioDeviceManager
    /// Reads the mute of the source the engine records from.
    public let microphone: any MicrophoneControl
    /// Who owns the preference list: `SetPreferences` and `ClearPreferences` go through it.
    public let preferences: any PreferenceKeeper
    /// The context monitors and media pausing (``NoContext`` when the daemon runs none).
    public let context: any ContextControl

    /// A driver for `manager` and `microphone`; `preferences` keeps the run-time preferences
    /// (by default nothing keeps them, and clearing goes back to the manager's list now);
    /// `context` answers the context properties and volume capture.
    public init(manager: AudioDeviceManager, microphone: any MicrophoneControl, preferences: (any PreferenceKeeper)? = nil,
                context: any ContextControl = NoContext()) {
        self.manager = manager
        self.microphone = microphone
        self.preferences = preferences ?? ConfiguredPreferences(configured: manager.preferences)
        self.context = context
    }

    /// Performs `operation` for `caller` (the client's unique bus name; nil for a call built
    /// without one); returns once the engine has settled (the route confirmed, or the next
    /// device tried). Throws the D-Bus error to answer with: `UnknownDevice` or `NotUsable`
    /// when the device went away meanwhile, `NotUsable` when the speaker toggle or the
    /// microphone cannot be honoured, `ServerFailed` when the server refused to mute.
    public func perform(_ operation: EngineOperation, caller: String?) async throws(BusError) {
        switch operation {
        case .select(let device):
            do {
                try await manager.select(device)
            } catch {
                switch error {
                case .noSuchDevice(let id):
                    throw DeviceTarget.unknown("no device \"\(id)\" is present", await devices())
                case .notUsable:
                    throw BusError(name: RouteKitInterface.ErrorName.notUsable, message: error.description)
                }
            }
        case .setPreferences(let list):
            await preferences.setRunTime(list, on: manager)
        case .restoreConfiguredPreferences:
            await preferences.setRunTime(nil, on: manager)
        case .callAudio(let on):
            if on { await manager.activateCallAudio() } else { await manager.deactivateCallAudio() }
        case .speaker(let setting):
            do {
                try await manager.setSpeaker(setting)
            } catch {
                throw BusError(name: RouteKitInterface.ErrorName.notUsable, message: error.description)
            }
        case .muteMicrophone(let mute):
            let outcome: CommandOutcome
            do {
                outcome = try await manager.setMicrophoneMuted(mute)
            } catch {
                throw BusError(name: RouteKitInterface.ErrorName.notUsable, message: error.description)
            }
            if let failure = outcome.failures.last(where: { $0.step == .microphone }) {
                throw BusError(name: RouteKitInterface.ErrorName.serverFailed, message: "the server could not \(failure.message)")
            }
        case .refresh:
            await manager.refreshSpeakerphoneSetting()
        case .volumeCapture(let isOn):
            do {
                try await context.setVolumeCapture(isOn)
            } catch {
                throw BusError(name: RouteKitInterface.ErrorName.unavailable, message: "\(error)")
            }
        case .nothing:
            break
        }
    }

    /// Whether the microphone the engine records from is muted, as the server shows it; nil
    /// when there is none or it cannot be read.
    public func isMicrophoneMuted() async -> Bool? {
        guard let source = manager.microphone else { return nil }
        return await microphone.isMuted(source)
    }

    /// The devices the manager follows (or reads now, when it does not run); none when the
    /// server cannot be read.
    public func devices() async -> [AudioDevice] {
        (try? await manager.allDevices) ?? []
    }
}
