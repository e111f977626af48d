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
    /// What clients hold besides their calls.
    private let holds = ClientHolds()

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
    /// Returns what the method answers besides nothing: `OpenCall`'s id. `callerProcessID` is
    /// the caller's process, when the bus could tell: its streams are the call's own.
    @discardableResult
    public func perform(_ operation: EngineOperation, caller: String?, callerProcessID: Int32? = nil) async throws(BusError) -> String? {
        let owner = CallOrigin.busClient(caller ?? "")
        switch operation {
        case .select(let device):
            do {
                try await manager.select(device)
            } catch {
                switch error {
                case .noSuchDevice(let id):
                    throw DeviceTarget.unknown("no device \"\(ErrorText.quoted(id.rawValue))\" is present", await devices())
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
        case .openCall(let id, let state):
            let open = manager.calls.count(where: { $0.origin == owner })
            guard open < RouteKitLimits.maximumOpenCallsPerClient else {
                throw RouteKitLimits.exceeded("\(open) calls open: at most \(RouteKitLimits.maximumOpenCallsPerClient) open calls per client")
            }
            let callID = id.isEmpty ? holds.newCallID() : id
            do {
                try await manager.startCall(CallSession(id: CallSession.ID(rawValue: callID), state: state, origin: owner,
                                                        processID: callerProcessID))
            } catch {
                throw Self.busError(error)
            }
            return callID
        case .setCallState(let id, let state):
            try ownCall(id, by: owner)
            do { try await manager.setCallState(CallSession.ID(rawValue: id), state) } catch { throw Self.busError(error) }
        case .closeCall(let id):
            try ownCall(id, by: owner)
            do { try await manager.endCall(CallSession.ID(rawValue: id)) } catch { throw Self.busError(error) }
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
            // Capture is the session's: on while any client holds it, off when the last lets go.
            let holder = caller ?? ""
            guard holds.holdCapture(isOn, by: holder) || caller == nil else { return nil }
            do {
                try await context.setVolumeCapture(isOn)
            } catch {
                if isOn { _ = holds.release(holder) }
                throw BusError(name: RouteKitInterface.ErrorName.unavailable, message: "\(error)")
            }
        case .nothing:
            break
        }
        return nil
    }

    /// A client's unique bus name went (it exited or crashed): its calls end, and the volume
    /// capture it held is let go. Returns what was ended, for the daemon's line; nil when the
    /// client held nothing.
    public func clientVanished(_ name: String) async -> String? {
        let calls = manager.calls.filter { $0.origin == .busClient(name) }.map(\.id.rawValue)
        let heldCapture = holds.release(name)
        guard !calls.isEmpty || heldCapture != nil else { return nil }
        if !calls.isEmpty { await manager.endCalls(from: .busClient(name)) }
        if heldCapture == true { try? await context.setVolumeCapture(false) }
        var ended: [String] = []
        if !calls.isEmpty { ended.append("call\(calls.count == 1 ? "" : "s") " + calls.joined(separator: ", ")) }
        if heldCapture != nil { ended.append("its volume capture") }
        return ended.joined(separator: " and ")
    }

    /// Refuses to change a call that is not the caller's.
    private func ownCall(_ id: String, by owner: CallOrigin) throws(BusError) {
        guard let call = manager.calls.first(where: { $0.id.rawValue == id }) else {
            throw BusError(name: RouteKitInterface.ErrorName.unknownCall, message: "no call \"\(ErrorText.quoted(id))\" is held")
        }
        guard call.origin == owner else {
            throw BusError(name: RouteKitInterface.ErrorName.notOwner, message: "call \"\(ErrorText.quoted(id))\" belongs to another client (\(call.origin))")
        }
    }

    /// The engine's refusal as the D-Bus error to answer.
    static func busError(_ refusal: CommandRefusal) -> BusError {
        switch refusal {
        case .noSuchCall: BusError(name: RouteKitInterface.ErrorName.unknownCall, message: refusal.description)
        case .callExists: BusError(name: RouteKitInterface.ErrorName.callExists, message: refusal.description)
        default: BusError(name: RouteKitInterface.ErrorName.notUsable, message: refusal.description)
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
