import AudioContext
import ConcurrencySupport
import DBus
import Logging
import MediaControl
import MPRIS
import PulseAudio
import RouteKit
import RouteKitDBus
import ScreenLock
import ServiceLifecycle
import TextSupport

/// What `routectl daemon` runs beside routing: media pausing (``MediaGuard``), silent mode,
/// the screen lock and volume-button capture, as one service whose state the D-Bus API
/// publishes (``ContextControl``) and whose media decisions it reports in lines.
///
/// Each monitor runs as a child task of ``run()`` until graceful shutdown; the media guard
/// then unmutes what it holds, and capture puts the user's volume back.
package final class DaemonContext: ContextControl, Service {
    package let mediaGuard: MediaGuard
    /// Ringtones on the speaker (or the speaker and the headset) while a call rings.
    package let ringing: RingtoneFollower
    private let manager: AudioDeviceManager
    /// Softphones that do not talk to RouteKit, found by their streams; nil when turned off.
    private let callDetector: StreamCallDetector?
    private let mpris: MPRISFollower?
    private let silentMode: SilentModeMonitor
    private let screenLock: ScreenLockMonitor
    private let capture: VolumeButtonCapture
    /// Whether capture holds the default output yet: `StartVolumeCapture` answers once it does.
    private let arming = VolumeCaptureArming()
    private let write: @Sendable (String) -> Void
    private let captureCommands: AsyncStream<VolumeCaptureCommand>
    private let captureCommand: AsyncStream<VolumeCaptureCommand>.Continuation
    private let shared = LockedValue(Shared())

    private let broadcast = Broadcast<ContextNotice>()

    private struct Shared {
        var snapshot = ContextSnapshot()
    }

    /// Monitors for `client`'s server and `manager`'s routes, pausing the session's MPRIS
    /// players (`mpris`, nil without a session bus; followed until the service ends) with
    /// `settings`; `screenLock` says which buses to ask about the screen; `write` gets the
    /// daemon's lines.
    package init(client: PulseClient, manager: AudioDeviceManager, mpris: MPRISFollower?, settings: MediaSettings,
         calls: CallSettings = CallSettings(), screenLock: ScreenLockConfiguration, write: @escaping @Sendable (String) -> Void,
         logger: Logger) {
        self.mpris = mpris
        self.manager = manager
        // The detector, media pausing and ringing follow the streams the manager mirrors (the
        // daemon makes it with `mirrorsStreams` whenever something follows streams): no reading
        // of their own. Their writes (a mute, a move) go to the server on the same connection.
        callDetector = calls.detects ? StreamCallDetector(manager: manager, rule: calls.detection, logger: logger) : nil
        mediaGuard = MediaGuard(server: client, manager: manager, players: mpris.map { [$0] } ?? [], settings: settings,
                                logger: logger)
        ringing = RingtoneFollower(server: client, manager: manager, settings: calls.ringingSettings(privateKinds: settings.privateKinds),
                                   logger: logger)
        silentMode = SilentModeMonitor(manager: manager, logger: logger)
        self.screenLock = ScreenLockMonitor(configuration: screenLock, logger: logger)
        // Capture reads the manager's mirror, and sends its restores on the same connection.
        capture = VolumeButtonCapture(manager: manager, server: client, logger: logger)
        self.write = write
        (captureCommands, captureCommand) = AsyncStream.makeStream(of: VolumeCaptureCommand.self)
    }

    // MARK: ContextControl

    package var snapshot: ContextSnapshot { shared.withLock { $0.snapshot } }

    package func notices() -> AsyncStream<ContextNotice> {
        broadcast.subscribe()
    }

    /// Turns capture on or off. On, it returns once capture holds the default output (or
    /// waits for one), so that a press made right after is seen, or after
    /// ``captureArmingLimit`` when the server is too slow to answer (capture still arms later).
    package func setVolumeCapture(_ isOn: Bool) async throws {
        let armed = isOn ? arming.waiter() : nil
        if !isOn { arming.disarm() }
        captureCommand.yield(isOn ? .start : .stop)
        update { $0.volumeCapture = isOn }
        write("volume: capture \(isOn ? "on" : "off")")
        if let armed {
            _ = await untilDeadline(.now + Self.captureArmingLimit) { await armed.value() }
        }
    }

    /// How long `StartVolumeCapture` waits for capture to hold the default output.
    package static let captureArmingLimit: Duration = .seconds(2)

    // MARK: Service

    package func run() async throws {
        let media = mediaGuard.events()
        let routes = manager.events()
        let detected = callDetector?.events()
        let screens = screenLock.changes()
        let silences = silentMode.changes()
        let rings = ringing.events()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.mediaGuard.run() }
                if let players = self.mpris {
                    group.addTask { await players.run() }
                }
                group.addTask { await self.screenLock.run() }
                group.addTask { await self.ringing.run() }
                group.addTask {
                    for await event in rings { self.write("ring: " + TerminalText.escaped(event.description)) }
                }
                group.addTask {
                    await self.capture.run(commands: self.captureCommands) { event in self.captured(event) }
                }
                group.addTask {
                    for await event in media { self.media(event) }
                }
                group.addTask {
                    // A call's own streams are never paused or muted: its process's, besides the phone role.
                    for await event in routes {
                        let calls: [CallSession]
                        switch event {
                        case .state(let state): calls = state.calls
                        case .callsChanged(let now): calls = now
                        default: continue
                        }
                        self.mediaGuard.update(CallStreams(processIDs: Set(calls.compactMap { $0.processID.map(UInt32.init) })))
                    }
                }
                if let detector = self.callDetector, let detected {
                    group.addTask { await detector.run() }
                    group.addTask {
                        for await event in detected { await self.detected(event) }
                    }
                }
                group.addTask {
                    for await state in screens {
                        self.update {
                            $0.screenLock = Self.lock(state.lock)
                            $0.idle = ContextSnapshot.Activity(isIdle: state.idle)
                        }
                    }
                }
                group.addTask {
                    for await mode in silences {
                        if let isSilent = mode.isSilent { self.ringing.update(silent: isSilent) }
                        self.update { $0.silentMode = ContextSnapshot.Silence(isSilent: mode.isSilent) }
                    }
                }
            }
        }
        captureCommand.finish()
        broadcast.finish()
    }

    // MARK: Events

    private func media(_ event: MediaEvent) {
        switch event {
        case .held(let reason, let players, let streams, let unmatched):
            write("media: \(TerminalText.escaped(reason.description)): paused \(players.isEmpty ? "no player" : Self.names(players)); muted "
                  + "\(streams.isEmpty ? "no stream" : "streams " + streams.map(String.init).joined(separator: ", "))"
                  + (unmatched.isEmpty ? "" : " (no player for \(unmatched.map(String.init).joined(separator: ", ")): unmuted after "
                     + "\(mediaGuard.settings.unmatchedMuteDuration))"))
            if !players.isEmpty { notify(.mediaPaused(players: players, reason: reason.description)) }
        case .resumed(let reason, let players):
            write("media: resumed \(Self.names(players)) (paused for \(TerminalText.escaped(reason.description)))")
            notify(.mediaResumed(players: players, reason: reason.description))
        case .forgotten(let players):
            write("media: will not resume \(Self.names(players)) (played, stopped or gone since, or too long ago)")
        case .failed(let message):
            write("media: " + TerminalText.escaped(message))
        case .player(let player):
            // A player's Identity is whatever the player says: escaped, as every bus text.
            write("media: player \(TerminalText.escaped(player.name)) (\(TerminalText.escaped(player.identity ?? "no identity")), "
                  + "pid \(player.processID.map(String.init) ?? "unknown")) " + TerminalText.escaped(player.status.rawValue.lowercased()))
        case .ready, .released:
            break
        }
        let paused = mediaGuard.pausedPlayers
        update { $0.pausedPlayers = paused }
    }

    /// A softphone's call found by its streams becomes one of the engine's calls, and ends with them.
    private func detected(_ event: DetectedCallEvent) async {
        switch event {
        case .started(let call):
            let name = call.application.processBinary ?? call.application.name ?? "an application"
            let session = CallSession(id: Self.sessionID(call.id), state: .active, origin: .detected(name),
                                      processID: call.application.processID)
            do {
                try await manager.startCall(session)
                write("call: detected \(TerminalText.escaped(name))"
                      + (call.application.processID.map { " (pid \($0))" } ?? "") + "; call audio follows it")
            } catch {
                write("call: detected \(TerminalText.escaped(name)), not started: \(error)")
            }
        case .changed:
            break
        case .ended(let id):
            guard (try? await manager.endCall(Self.sessionID(id))) != nil else { return }
            write("call: the detected call \(Self.sessionID(id)) ended")
        }
    }

    /// Player names (bus names, or an in-process player's own) for a line, escaped.
    private static func names(_ players: [String]) -> String {
        players.map(TerminalText.escaped).joined(separator: ", ")
    }

    private static func sessionID(_ id: DetectedCall.ID) -> CallSession.ID {
        CallSession.ID(rawValue: "detected-\(id.rawValue)")
    }

    /// The D-Bus API's word for the screen's state.
    private static func lock(_ state: LockState) -> ContextSnapshot.Lock {
        switch state {
        case .locked: .locked
        case .unlocked: .unlocked
        case .unknown: .unknown
        }
    }

    /// The D-Bus API's word for a button.
    private static func press(_ button: VolumeButton) -> VolumeButtonPress {
        switch button {
        case .up: .up
        case .down: .down
        case .mute: .mute
        }
    }

    private func captured(_ event: VolumeCaptureEvent) {
        arming.note(event)
        if case .pressed(let button, _) = event {
            write("volume: \(TerminalText.escaped("\(button)")) pressed")
            notify(.volumeButton(Self.press(button)))
        }
    }

    private func update(_ change: (inout ContextSnapshot) -> Void) {
        shared.withLock { shared in
            var snapshot = shared.snapshot
            change(&snapshot)
            guard snapshot != shared.snapshot else { return }
            shared.snapshot = snapshot
            broadcast.send(.changed(snapshot))
        }
    }

    private func notify(_ notice: ContextNotice) {
        broadcast.send(notice)
    }
}
