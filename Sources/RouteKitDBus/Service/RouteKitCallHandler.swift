import DBus
import RouteKit

/// Answers one call to RouteKit1: decode, decide, perform, publish, reply. An error answers
/// the call before anything changed, except a device that vanished while it was chosen.
enum RouteKitCallHandler {
    static func answer(_ call: BusMethodCall, driver: EngineDriver, publisher: StatePublisher) async {
        do throws(BusError) {
            let devices = await driver.devices()
            let state = driver.manager.state
            let request = try RouteKitRequest.decode(member: call.member, arguments: call.arguments, devices: devices)
            switch request {
            case .listDevices:
                publisher.publishState()
                call.reply([DeviceRecord.list(devices)])
            case .status:
                // The properties too: the engine announces no event when it starts with nothing
                // to route, so until a change they may still show the state from before its run.
                let muted = await driver.isMicrophoneMuted()
                publisher.publishState()
                publisher.publish(microphoneMuted: muted)
                call.reply([RouteKitProperties.statusRecord(state, microphoneMuted: muted,
                                                             preferencesOrigin: await driver.preferences.origin(),
                                                             context: driver.context.snapshot)])
            default:
                let operation = try request.operation(devices: devices, state: state, automatic: driver.manager.automaticChoice)
                try await driver.perform(operation, caller: call.sender)
                publisher.publishState()
                if case .muteMicrophone = operation { publisher.publish(microphoneMuted: await driver.isMicrophoneMuted()) }
                if case .use = request {
                    call.reply([.string(driver.manager.selectedAudioDevice?.id.rawValue ?? "")])
                } else {
                    call.reply([])
                }
            }
        } catch {
            call.fail(error)
        }
    }
}

/// Answers one call to callaudiod's interface, as callaudiod does: `true` once done, or a
/// D-Bus error (`InvalidArgs` for an unknown mode, `Failed` otherwise).
enum CallAudioCallHandler {
    static func answer(_ call: BusMethodCall, driver: EngineDriver, publisher: StatePublisher) async {
        do throws(BusError) {
            let request = try CallAudioRequest.decode(member: call.member, arguments: call.arguments)
            let operation = try request.operation(devices: await driver.devices(), state: driver.manager.state,
                                                  automatic: driver.manager.automaticChoice)
            do {
                try await driver.perform(operation, caller: call.sender)
            } catch {
                throw BusError.failed(error.message)
            }
            publisher.publishState()
            if case .muteMicrophone = operation { publisher.publish(microphoneMuted: await driver.isMicrophoneMuted()) }
            call.reply([.boolean(true)])
        } catch {
            call.fail(error)
        }
    }
}
