import DBus
import RouteKit

/// Answers one call to RouteKit1: decode, decide, perform, publish, reply. An error answers
/// the call before anything changed, except a device that vanished while it was chosen.
enum RouteKitCallHandler {
    static func answer(_ call: BusMethodCall, driver: EngineDriver, publisher: StatePublisher, clients: BusClients) async {
        // A call that started the daemon (bus activation) arrives while the engine still reads
        // the server: it is decided on the devices, not refused for want of any.
        await driver.manager.pastFirstReading()
        do throws(BusError) {
            let devices = await driver.devices()
            let state = driver.manager.state
            let request = try RouteKitRequest.decode(member: call.member, arguments: call.arguments, devices: devices)
            switch request {
            case .listDevices:
                publisher.publishState()
                call.reply([DeviceRecord.list(devices)])
            case .status:
                // Only until the engine's first reading is published: then the bus's thread
                // answers it (StatusAnswer). The properties too: the engine announces no event
                // when it starts with nothing to route, so until a change they may still show
                // the state from before its run.
                let muted = await driver.isMicrophoneMuted()
                publisher.publishState()
                publisher.publish(microphoneMuted: muted)
                call.reply([RouteKitProperties.statusRecord(state, microphoneMuted: muted,
                                                             preferencesOrigin: driver.preferences.origin,
                                                             context: driver.context.snapshot)])
            default:
                let operation = try request.operation(devices: devices, state: state, automatic: driver.manager.automaticChoice)
                let pid: Int32? = if case .openCall = operation, let sender = call.sender { await clients.processID(of: sender) } else { nil }
                let answer = try await driver.perform(operation, caller: call.sender, callerProcessID: pid)
                publisher.publishState()
                if case .muteMicrophone = operation { publisher.publish(microphoneMuted: await driver.isMicrophoneMuted()) }
                switch request {
                case .use: call.reply([.string(driver.manager.selectedAudioDevice?.id.rawValue ?? "")])
                case .openCall: call.reply([.string(answer ?? "")])
                default: call.reply([])
                }
                if operation.holdsSomething, let sender = call.sender {
                    // The client may have gone before what it took was recorded (its vanishing
                    // and its call come on separate streams): let go of it now.
                    await clients.releaseIfGone(sender, driver: driver)
                }
            }
        } catch {
            call.fail(error)
        }
    }
}

/// Answers one call to callaudiod's interface as callaudiod 0.1.7 does
/// (``CallAudioSemantics``): `true` once done, `false` when it could not be done (no output,
/// no speaker, no microphone, the server refused), and a D-Bus error only for a mode other
/// than 0 and 1 (`InvalidArgs`).
enum CallAudioCallHandler {
    static func answer(_ call: BusMethodCall, driver: EngineDriver, publisher: StatePublisher) async {
        await driver.manager.pastFirstReading()
        let method: CallAudioMethod
        do throws(BusError) {
            method = try CallAudioRequest.decode(member: call.member, arguments: call.arguments).method
        } catch {
            call.fail(error)
            return
        }
        let before = CallAudioProperties.state(driver.manager.state, microphoneMuted: await driver.isMicrophoneMuted())
        let outcome = CallAudioSemantics.outcome(of: method, devices: CallAudioDevices(await driver.devices()), state: before)
        switch outcome.reply {
        case .failure(let error):
            call.fail(error)
        case .success(false):
            call.reply([.boolean(false)])
        case .success(true):
            var succeeded = true
            for intent in outcome.intents {
                do {
                    try await driver.perform(intent.operation, caller: call.sender)
                } catch {
                    succeeded = false
                }
            }
            publisher.publishState()
            publisher.publish(microphoneMuted: await driver.isMicrophoneMuted())
            call.reply([.boolean(succeeded)])
        }
    }
}

extension CallAudioRequest {
    /// The method, as ``CallAudioSemantics`` names it.
    var method: CallAudioMethod {
        switch self {
        case .selectMode(let mode): .selectMode(mode)
        case .enableSpeaker(let enable): .enableSpeaker(enable)
        case .muteMicrophone(let mute): .muteMic(mute)
        }
    }
}

extension CallAudioIntent {
    /// What the engine does for it: call mode is the session's implicit call, the speaker the
    /// engine's toggle, the mute the engine's.
    var operation: EngineOperation {
        switch self {
        case .enterCallMode: .callAudio(true)
        case .leaveCallMode: .callAudio(false)
        case .speaker(let on, _): .speaker(on ? .on : .off)
        case .muteMicrophone(let mute): .muteMicrophone(mute)
        }
    }
}
