import Logging
import PulseAudio

/// What call audio changed, to undo when it ends.
struct CallAudioRecord: Sendable {
    /// Cards whose profile was switched for the call (a Bluetooth headset to HSP/HFP).
    var cards: Set<String> = []
    /// The default source when the call started.
    var defaultSourceBefore: String?
}

/// ACB's CallKit methods: call audio on and off.
extension AudioDeviceManager {
    /// Starts call audio: the route's device is used in both directions. A Bluetooth headset
    /// moves to its headset profile (HSP/HFP) so that its microphone works, and the input
    /// follows the output. ACB's `activeCallKitAudioSession`.
    public func activateCallAudio() async {
        guard !isCallAudioActive else { return }
        isCallAudioActive = true
        call = CallAudioRecord(defaultSourceBefore: await deviceList.defaultSourceName)
        failures.removeAll()
        await reconcile(.callStarted)
    }

    /// Ends call audio: the profiles switched for the call are put back, then the route
    /// outside calls, and in system scope the default source the call found. ACB's
    /// `deactiveCallKitAudioSession`.
    public func deactivateCallAudio() async {
        guard isCallAudioActive else { return }
        isCallAudioActive = false
        await restoreCallProfiles()
        failures.removeAll()
        await reconcile(.callEnded)
        guard scope == .system, let before = call.defaultSourceBefore else { return }
        let current = await deviceList.defaultSourceName
        let routeHasInput = selectedAudioDevice?.input?.deviceName != nil
        guard !routeHasInput, current != before, await deviceList.source(named: before) != nil else { return }
        do {
            try await server.setDefaultSource(before)
        } catch {
            logger.warning("could not restore the default source", metadata: ["source": "\(before)", "error": "\(error)"])
        }
        call = CallAudioRecord()
    }

    /// Puts back the profiles switched for the call, where nobody changed them since, and
    /// waits until the device list shows them.
    func restoreCallProfiles() async {
        let cards = call.cards
        call.cards.removeAll()
        for card in cards {
            guard let switched = ledger.forgetProfile(card: card),
                  await deviceList.card(named: card)?.activeProfileName == switched.selected else { continue }
            let changes = await deviceList.changes()
            do {
                try await server.setCardProfile(card, profile: switched.original)
            } catch {
                logger.warning("could not restore the profile", metadata: ["card": "\(card)", "error": "\(error)"])
                continue
            }
            let deviceList = self.deviceList
            _ = await waitOnDeviceList(changes, timeout: profileTimeout) { _ -> Bool? in
                await deviceList.card(named: card)?.activeProfileName == switched.original ? true : nil
            }
        }
    }
}
