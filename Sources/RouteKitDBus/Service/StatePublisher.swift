import ConcurrencySupport
import DBus
import RouteKit

/// Keeps the exported objects' properties current and sends RouteKit1's signals: from the
/// engine's events, from the microphone's changes, and after each call that changed something.
final class StatePublisher: Sendable {
    let routeKit: ExportedObject?
    let callAudio: ExportedObject?
    /// `Status` as answered on the bus's thread: told the microphone's mute too.
    let status: StatusAnswer?
    let driver: EngineDriver
    var manager: AudioDeviceManager { driver.manager }
    /// Reading the state and storing it happen under this lock, so that of two publishers
    /// (the event loop and a call), the one that stores last stores the newer state.
    private let order = LockedValue(())

    init(routeKit: ExportedObject?, callAudio: ExportedObject?, status: StatusAnswer? = nil, driver: EngineDriver) {
        self.routeKit = routeKit
        self.callAudio = callAudio
        self.status = status
        self.driver = driver
    }

    /// The properties that follow the engine, from its state now.
    func publishState() {
        order.withLock { _ in
            let state = manager.state
            routeKit?.setProperties(RouteKitProperties.values(for: state))
            callAudio?.setProperties(CallAudioProperties.values(for: state))
        }
    }

    /// The properties that follow the microphone.
    func publish(microphoneMuted muted: Bool?) {
        status?.microphoneChanged(muted)
        routeKit?.setProperties(RouteKitProperties.values(microphoneMuted: muted))
        callAudio?.setProperties(CallAudioProperties.values(microphoneMuted: muted))
    }

    /// Once the engine is past its first reading: the properties from its state (it announces
    /// no event when it starts with nothing to route), `Status` answered on the bus's thread
    /// from them (``StatusAnswer``), and the microphone's mute read again.
    func answerStatusDirectly() async {
        await manager.pastFirstReading()
        publishState()
        status?.ready()
        publish(microphoneMuted: await driver.isMicrophoneMuted())
    }

    /// Every engine event: the properties first, then the signal, so that a client that hears
    /// `RouteChanged` reads the new `Route`. Ends when the engine's events do, or on cancellation.
    func followEngine() async {
        for await event in manager.events() {
            publishState()
            switch event {
            case .routeChanged, .inputChanged, .microphoneMuteChanged, .callAudioChanged:
                // The source recorded from, or its mute, may be another now.
                publish(microphoneMuted: await driver.isMicrophoneMuted())
            default:
                break
            }
            switch event {
            case .routeChanged(let from, let to, let reason):
                routeKit?.emit(.routeChanged(from: from?.id, to: to?.id, reason: reason))
            case .switchFailed(let device, let reason):
                routeKit?.emit(.switchFailed(device: device.id, failure: reason))
            case .devicesChanged(let devices):
                routeKit?.emit(.devicesChanged(devices))
            default:
                break
            }
        }
    }

    /// The context's properties now, then its changes and signals, until cancelled.
    func followContext(_ context: any ContextControl) async {
        let notices = context.notices()
        routeKit?.setProperties(ContextProperties.values(for: context.snapshot))
        for await notice in notices {
            switch notice {
            case .changed(let snapshot):
                routeKit?.setProperties(ContextProperties.values(for: snapshot))
            case .volumeButton(let button):
                routeKit?.emit(.volumeButtonPressed(button))
            case .mediaPaused(let players, let reason):
                routeKit?.emit(.mediaPaused(players: players, reason: reason))
            case .mediaResumed(let players, let reason):
                routeKit?.emit(.mediaResumed(players: players, reason: reason))
            }
        }
    }

    /// The mute of the source the engine records from, now and after each change, until
    /// cancelled. A change that comes while it reads is read again, so the last value stored
    /// is the last one read.
    func followMicrophone() async {
        let changes = driver.microphone.changes()
        publish(microphoneMuted: await driver.isMicrophoneMuted())
        for await _ in changes {
            publish(microphoneMuted: await driver.isMicrophoneMuted())
        }
    }
}
