import PulseAudio
import RouteKit

/// routectl's commands with no daemon running: each acts on the sound server once, as
/// `pactl` would, and returns when the server shows it done. Nothing stays behind to keep a
/// choice (a headset plugged in later is not followed: that is the daemon's work) but the
/// record of call audio (``CallRecordStore``), so that `call end` puts back what `call start`
/// changed.
struct DirectRoutingControl: RoutingControl {
    /// The server.
    let server: any SourceMutingServer
    /// Where call audio is recorded; nil without `XDG_RUNTIME_DIR` (then `call` refuses).
    let callRecords: CallRecordStore?
    /// The preferences the daemon would use, shown by `status`.
    var displayedPreferences: (entries: [String], origin: PreferenceOrigin) = ([], .none)

    /// No daemon: the server itself.
    var answerer: RoutingAnswerer { .soundServer }

    private var switcher: DirectSwitcher { DirectSwitcher(server: server) }

    /// Switches now; nothing keeps the choice when devices change later.
    func use(_ target: String) async throws -> AudioDevice {
        let view = try await ServerView.read(from: server)
        let device = try DeviceChoice.resolve(target, among: view.devices, route: view.route)
        return try await switcher.switchTo(device, forCall: callRecords?.read() != nil)
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

    /// On: the route's device in both directions, a Bluetooth headset in its headset profile;
    /// off: the profile and the default source put back, if nobody changed them since.
    func setCallAudio(_ isOn: Bool) async throws -> Bool {
        guard let callRecords else {
            throw RouteCtlFailure.needsDaemon("""
                call audio without the daemon is recorded under XDG_RUNTIME_DIR, which is unset; \
                start 'routectl daemon', or set XDG_RUNTIME_DIR.
                """)
        }
        let record = callRecords.read()
        if isOn {
            guard record == nil else { return false }
            try await startCall(callRecords)
        } else {
            guard let record else { return false }
            try await endCall(record, callRecords)
        }
        return true
    }

    private func startCall(_ records: CallRecordStore) async throws {
        let view = try await ServerView.read(from: server)
        guard let route = view.route else {
            throw RouteCtlFailure.noSuchDevice("no device carries audio now: there is nothing to put call audio on.\n"
                                               + DeviceChoice.choices(view.devices))
        }
        let profile = DirectSwitch.profileToSelect(for: route, forCall: true)
        let cardBefore = route.card.flatMap { card in view.cards.first { $0.name == card }?.activeProfileName }
        // Recorded first: a call that fails half-way can still be ended.
        let record = CallRecord(device: route.id.rawValue, card: profile == nil ? nil : route.card,
                                profileBefore: profile == nil ? nil : cardBefore, callProfile: profile,
                                defaultSourceBefore: view.info.defaultSourceName)
        try records.write(record)
        _ = try await switcher.switchTo(route, forCall: true)
    }

    private func endCall(_ record: CallRecord, _ records: CallRecordStore) async throws {
        var view = try await ServerView.read(from: server)
        if let card = record.card, let before = record.profileBefore, let during = record.callProfile,
           view.cards.first(where: { $0.name == card })?.activeProfileName == during {
            try await switcher.perform([.profile(card: card, profile: before)])
            let id = AudioDevice.ID(rawValue: record.device)
            if let shown = try await ServerWaiting.view(on: server, events: server.events(), until: { view in
                DirectSwitch.isReady(view.device(id), profile: before, forCall: false)
            }), let device = shown.device(id) {
                _ = try await switcher.switchTo(device, forCall: false)
            }
            view = try await ServerView.read(from: server)
        }
        // The default source goes back unless the route has a microphone of its own that the
        // call did not bring (a wired headset's stays).
        let keepsInput = record.card == nil && view.route?.input?.deviceName != nil
        if !keepsInput, let before = record.defaultSourceBefore, before != view.info.defaultSourceName,
           view.sources.contains(where: { $0.name == before }) {
            try await server.setDefaultSource(before)
        }
        try records.remove()
    }

    /// On: a speakerphone (the one in use, else the newest); off: from the speaker to the
    /// device a person carries — a wired headset, else Bluetooth, else the earpiece.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice? {
        let view = try await ServerView.read(from: server)
        let inCall = callRecords?.read() != nil
        if isOn {
            let speaker = try DeviceChoice.resolve(AudioDeviceKind.speakerphone.rawValue, among: view.devices, route: view.route)
            return try await switcher.switchTo(speaker, forCall: inCall)
        }
        guard let route = view.route, route.kind == .speakerphone else { return view.route }
        guard let other = RoutePolicy.candidates(among: view.devices, preferences: Self.speakerOffKinds, selection: nil).first else {
            throw RouteCtlFailure.noSuchDevice("no device but the speaker is present to take the audio.\n"
                                               + DeviceChoice.choices(view.devices))
        }
        return try await switcher.switchTo(other, forCall: inCall)
    }

    /// Where audio goes when the speaker is turned off without the daemon, best first.
    static let speakerOffKinds: [AudioPreference] = [.kind(.wiredHeadset), .kind(.bluetooth), .kind(.earpiece)]

    /// The default source's mute.
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String {
        try await MicrophoneMute.set(isMuted, on: server)
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
            isCallAudioOn: callRecords?.read() != nil, isMicrophoneMuted: source?.isMuted)
    }
}
