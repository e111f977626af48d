import PulseAudio
import RouteKit

/// Media pausing's decisions, as a value: fed what the server, the players and the engine
/// say, it returns what to mute, pause, unmute and resume. It performs nothing and reads no
/// clock; ``MediaGuard`` drives it.
///
/// A stream is *exposed* when the private output it plays on goes away under it: its sink is
/// removed (the server moves the stream to another one), or the sink's active port becomes
/// unavailable and the sink switches to another port (a jack pulled). A switch someone chose
/// (a move, a port chosen while the old one is still available) exposes nothing. An exposed
/// stream is muted at once, and the players playing it (matched by process id) are asked to
/// pause; the stream is unmuted once it corks or goes, once its player has paused (after
/// ``MediaSettings/pauseGrace`` at most), or after ``MediaSettings/unmatchedMuteDuration``
/// when no player was found.
///
/// Media that finds another private output is not exposed: nothing can leak, and the
/// listener who lost a headset has a second one on purpose (Android sends no becoming-noisy
/// intent while another headset remains). A call's own streams (``CallStreams``) are never
/// muted or paused.
struct MediaMachine: Sendable {
    var settings: MediaSettings
    private(set) var sinks: [UInt32: SinkRecord] = [:]
    private(set) var streams: [UInt32: StreamRecord] = [:]
    private(set) var players: [String: MediaPlayer] = [:]
    /// What each player last said of itself: ``players`` may hold a status the machine assumed
    /// (playing, just after it resumed one), and a player's own word is announced when it
    /// differs from what it said before, not from what was assumed.
    private var reportedStatus: [String: PlaybackStatus] = [:]
    private(set) var holds: [UInt32: StreamHold] = [:]
    private(set) var paused: [String: PausedPlayer] = [:]
    private(set) var defaultSink: String?
    private(set) var isCallActive = false
    /// Which streams are calls': never muted or paused.
    private(set) var callStreams = CallStreams()
    /// Which outputs are private, by what the device model said; an output keeps its answer
    /// after the model forgets it (a sink's name and port always mean the same kind), so that
    /// a sink removed is known as private whichever of the model and the server tells first.
    private(set) var privacy: [OutputKey: Bool] = [:]
    /// Whether the default output has been public since the last pause on unplug: a resume
    /// waits for it to turn private again.
    private var defaultWasPublic = false
    /// Streams announced gone while they played on a private sink, and when: PipeWire may
    /// announce a stream whose sink goes as removed, then as new under the same index.
    private var departed: [UInt32: (sink: UInt32, at: ContinuousClock.Instant)] = [:]
    /// Streams gone when their private sink went, to expose if they come back under the same
    /// index: why, and when.
    private var exposedWhileGone: [UInt32: (reason: MediaHoldReason, at: ContinuousClock.Instant)] = [:]
    /// Streams that left a private sink as it went without being exposed: left playing because
    /// the default they will be moved to is private, or corked with no player to say whether
    /// they were paused (PipeWire shows a stream it moves off a sink that went as corked until
    /// it is linked again). Exposed after all if they play on a public sink within
    /// ``returnWindow``; let go on a private one.
    private var landing: [UInt32: (lost: UInt32, reason: MediaHoldReason, at: ContinuousClock.Instant)] = [:]
    /// Streams RouteKit unmuted, and when: a reading showing one muted soon after is older
    /// than the unmute.
    private var unmutedAt: [UInt32: ContinuousClock.Instant] = [:]
    /// Private sinks removed a moment ago, and when: a reading of a stream that was in flight
    /// when the removal was passed on (removals need no reading and overtake reads) may show
    /// a stream the machine did not know played there.
    private var removedPrivately: [UInt32: (sink: SinkRecord, at: ContinuousClock.Instant)] = [:]

    /// How long a stream moved away from a sink counts as moved by that sink's removal: a
    /// server that moves streams off a sink it removes says so in the same breath (PulseAudio
    /// sends the moves, then the removal), and the lookup of a move may come back first.
    static let moveWindow: Duration = .milliseconds(100)

    init(settings: MediaSettings) {
        self.settings = settings
    }

    /// The next moment ``tick(now:)`` has something to do.
    var deadline: ContinuousClock.Instant? {
        let releases = holds.values.compactMap(\.releaseAt)
        let expiries = paused.values.filter { $0.reason != .call }.map { $0.at.advanced(by: settings.resumeWindow) }
        return (releases + expiries).min()
    }

    /// The sinks on which a stream plays (not corked), muted or not: a change of one of them
    /// can expose media.
    var playingSinks: Set<UInt32> {
        Set(streams.values.lazy.filter { !$0.isCorked }.map(\.sink))
    }

    /// New settings, from the next input on.
    mutating func settingsChanged(_ settings: MediaSettings) -> [MediaAction] {
        self.settings = settings
        return []
    }

    // MARK: The server

    /// Everything the server has now, after a connection or reconnection: holds on streams
    /// that are gone are dropped. What the connection missed while it was away is caught up
    /// with as far as a call's hold goes: during a call that holds media, a stream that
    /// started, or started to play, meanwhile is held as if its events had come. Without it,
    /// a player that reconnected to a restarted pipewire-pulse during a call could be read
    /// playing here first, and its own `new` event then find it audible already: never held.
    /// A stream linked to no sink keeps the sink and cork it had
    /// (``StreamRecord/init(_:previous:)``).
    mutating func reset(sinks: [SinkInfo], streams: [SinkInputInfo], defaultSink: String?,
                        now: ContinuousClock.Instant) -> [MediaAction] {
        let previous = self.streams
        self.sinks = Dictionary(sinks.map { ($0.index, SinkRecord($0)) }, uniquingKeysWith: { _, last in last })
        self.streams = Dictionary(streams.map { ($0.index, StreamRecord($0, previous: previous[$0.index])) },
                                  uniquingKeysWith: { _, last in last })
        self.defaultSink = defaultSink
        let stale = holds.keys.filter { self.streams[$0] == nil }
        for index in stale { holds.removeValue(forKey: index) }
        var actions: [MediaAction] = []
        for record in self.streams.values.sorted(by: { $0.index < $1.index }) where !(previous[record.index]?.isAudible ?? false) {
            actions += holdForCall(newStream: record, now: now) ?? []
        }
        return actions
    }

    /// A sink appeared or changed.
    mutating func sinkSeen(_ sink: SinkInfo, now: ContinuousClock.Instant) -> [MediaAction] {
        let seen = SinkRecord(sink)
        let previous = sinks.updateValue(seen, forKey: seen.index)
        var actions: [MediaAction] = []
        if let previous, let oldPort = previous.activePort, oldPort != seen.activePort,
           isPrivate(sink: previous.name, port: oldPort), !isPrivate(seen),
           seen.portAvailability[oldPort] == .unavailable {
            let exposed = streams.values.filter { $0.sink == seen.index && $0.isAudible }.map(\.index)
            actions += expose(exposed, reason: .outputLost(seen.name), now: now)
        }
        return actions + considerResuming(now: now)
    }

    /// A sink went away: the streams on it, or moved from it just before, are exposed if it
    /// was private.
    mutating func sinkRemoved(_ index: UInt32, now: ContinuousClock.Instant) -> [MediaAction] {
        guard let sink = sinks.removeValue(forKey: index) else { return [] }
        guard isPrivate(sink) else { return considerResuming(now: now) }
        removedPrivately = removedPrivately.filter { $0.value.at.advanced(by: Self.returnWindow) >= now }
        removedPrivately[index] = (sink, now)
        for (stream, gone) in departed where gone.sink == index && gone.at.advanced(by: Self.returnWindow) >= now {
            exposedWhileGone[stream] = (.outputLost(sink.name), now)
            departed.removeValue(forKey: stream)
        }
        // The streams on it, or moved off it just before: those that may be heard are leaving it;
        // those corked with no player to say they paused are watched (``landing``).
        let departing = streams.values.filter { stream in
            if stream.sink == index { return true }
            guard let moved = stream.movedFrom, moved.sink == index else { return false }
            return moved.at.advanced(by: Self.moveWindow) >= now
        }
        let leaving = departing.filter(mayPlay)
        landing = landing.filter { $0.value.at.advanced(by: Self.returnWindow) >= now }
        for stream in departing where !mayPlay(stream) && player(playing: stream) == nil {
            landing[stream.index] = (index, .outputLost(sink.name), now)
        }
        var exposed: [UInt32] = []
        // Streams still on their way from an earlier removal (their new sink not read yet) may
        // have landed on this one: exposed too. A reading that shows one on a private output
        // releases it.
        for (stream, watched) in landing where watched.at.advanced(by: Self.returnWindow) >= now {
            guard let record = streams[stream], record.sink == watched.lost, mayPlay(record) else { continue }
            landing.removeValue(forKey: stream)
            exposed.append(stream)
        }
        for stream in leaving where leavesExposed(stream, lost: index, name: sink.name, now: now) {
            exposed.append(stream.index)
        }
        return expose(exposed, reason: .outputLost(sink.name), now: now) + considerResuming(now: now)
    }

    /// Whether `stream`, leaving the private sink at `lost` (named `name`), is exposed: not
    /// when another private output takes it, which is then watched in case it lands elsewhere.
    private mutating func leavesExposed(_ stream: StreamRecord, lost: UInt32, name: String,
                                        now: ContinuousClock.Instant) -> Bool {
        switch landsPrivately(stream, leaving: lost) {
        case true?:
            // Another private output takes it: nothing to hide, unless it lands elsewhere.
            if stream.sink == lost { landing[stream.index] = (lost, .outputLost(name), now) }
            return false
        case false?, nil:
            return true
        }
    }

    /// A reading that shows `seen` on a private sink already removed: the server answered it
    /// before the removal, which was passed on first. Decided as if it had come in its place,
    /// before the removal: a stream the machine did not know played there is exposed.
    private mutating func exposeLateReading(_ seen: StreamRecord, previous: StreamRecord?,
                                            now: ContinuousClock.Instant) -> [MediaAction]? {
        guard let removed = removedPrivately[seen.sink], removed.at.advanced(by: Self.returnWindow) >= now,
              previous?.sink != seen.sink, holds[seen.index] == nil, mayPlay(seen) else { return nil }
        guard leavesExposed(seen, lost: seen.sink, name: removed.sink.name, now: now) else { return [] }
        return expose([seen.index], reason: .outputLost(removed.sink.name), now: now)
    }

    /// Whether `stream` may be heard: not corked, or corked while its player says it plays
    /// (PipeWire shows a stream moved off a sink that went as corked until it is linked again).
    private func mayPlay(_ stream: StreamRecord) -> Bool {
        !stream.isCorked || player(playing: stream)?.status == .playing
    }

    /// Whether `stream`, leaving the sink at `lost`, plays on a private output: the sink it was
    /// moved to, or else the default the server moves it to; nil while neither is known (the
    /// default still names the sink that went).
    private func landsPrivately(_ stream: StreamRecord, leaving lost: UInt32) -> Bool? {
        if stream.sink != lost, let sink = sinks[stream.sink] { return isPrivate(sink) }
        guard let name = defaultSink, let sink = sinks.values.first(where: { $0.name == name }), sink.index != lost else { return nil }
        return isPrivate(sink)
    }

    /// A stream appeared or changed.
    mutating func streamSeen(_ stream: SinkInputInfo, now: ContinuousClock.Instant) -> [MediaAction] {
        let previous = streams[stream.index]
        var seen = StreamRecord(stream, previous: previous)
        if let unmuted = unmutedAt[seen.index] {
            if seen.isMuted, holds[seen.index] == nil, unmuted.advanced(by: Self.unmuteWindow) >= now {
                // A reading older than RouteKit's unmute: the stream is not silent, and an
                // output going now must hold it.
                seen.isMuted = false
            } else {
                unmutedAt.removeValue(forKey: seen.index)
            }
        }
        if let previous {
            seen.movedFrom = previous.movedFrom
            if previous.sink != seen.sink, let from = sinks[previous.sink], isPrivate(from) {
                seen.movedFrom = (previous.sink, now)
            }
        } else if let gone = departed.removeValue(forKey: seen.index), gone.at.advanced(by: Self.returnWindow) >= now {
            // Back under its index before its sink's removal was seen: moved off that sink.
            seen.movedFrom = (gone.sink, now)
        }
        streams[seen.index] = seen
        if !(previous?.isAudible ?? false), let held = holdForCall(newStream: seen, now: now) { return held }
        if let late = exposeLateReading(seen, previous: previous, now: now) { return late }
        let landedOn = sinks[seen.sink]
        if previous == nil, let exposure = exposedWhileGone.removeValue(forKey: seen.index),
           exposure.at.advanced(by: Self.returnWindow) >= now, mayPlay(seen), !(landedOn.map({ isPrivate($0) }) ?? false) {
            return expose([seen.index], reason: exposure.reason, now: now)
        }
        if let watched = landing[seen.index], seen.sink != watched.lost, let landedOn {
            if watched.at.advanced(by: Self.returnWindow) < now || isPrivate(landedOn) {
                landing.removeValue(forKey: seen.index)
            } else if mayPlay(seen) {
                landing.removeValue(forKey: seen.index)
                return expose([seen.index], reason: watched.reason, now: now)
            }
            // Corked on a public sink: watched until it plays there, or the window passes.
        }
        guard var hold = holds[seen.index] else { return [] }
        if seen.isCall(by: callStreams) { return release([seen.index], now: now) }
        // Moved to another private output after all (the default named the sink that went
        // when it was exposed): nothing can leak there.
        if case .outputLost = hold.reason, let landedOn, isPrivate(landedOn) { return release([seen.index], now: now) }
        // Corked counts once its player has said it paused: PipeWire shows a stream whose sink
        // went as corked until it is linked again, still playing.
        if seen.isCorked, let name = hold.player, let player = players[name], player.status != .playing {
            return release([seen.index], now: now)
        }
        if seen.isMuted {
            hold.isConfirmed = true
        } else if hold.isConfirmed {
            // Unmuted under the hold: WirePlumber restores a stream's remembered mute when it
            // links the stream to its new sink. Mute it again, a few times; a client that
            // keeps unmuting it gets it back.
            guard hold.remutes < Self.maximumRemutes else {
                holds.removeValue(forKey: seen.index)
                return [.emit(.released(streams: [seen.index]))]
            }
            hold.remutes += 1
            hold.isConfirmed = false
            holds[seen.index] = hold
            streams[seen.index]?.isMuted = true
            return [.mute(seen.index)]
        } else {
            // A reading older than the mute.
            streams[seen.index]?.isMuted = true
        }
        if hold.player == nil, hold.reason != .call, let player = player(playing: seen), player.status == .playing {
            hold.player = player.name
        }
        holds[seen.index] = hold
        return []
    }

    /// A stream went away. A stream held muted keeps its hold a moment: PipeWire may announce
    /// a stream whose sink went as removed and then as new again under the same index, still
    /// muted, and the hold is what unmutes it.
    mutating func streamRemoved(_ index: UInt32, now: ContinuousClock.Instant) -> [MediaAction] {
        departed = departed.filter { $0.value.at.advanced(by: Self.returnWindow) >= now }
        exposedWhileGone = exposedWhileGone.filter { $0.value.at.advanced(by: Self.returnWindow) >= now }
        landing = landing.filter { $0.value.at.advanced(by: Self.returnWindow) >= now }
        if let stream = streams.removeValue(forKey: index), mayPlay(stream), let sink = sinks[stream.sink],
           isPrivate(sink) {
            departed[index] = (stream.sink, now)
        }
        guard var hold = holds[index] else { return [] }
        let deadline = now.advanced(by: Self.orphanWindow)
        if hold.releaseAt.map({ $0 > deadline }) ?? true { hold.releaseAt = deadline }
        holds[index] = hold
        return []
    }

    /// How many times a held stream shown unmuted is muted again before it is let go.
    static let maximumRemutes = 3

    /// How long a stream announced gone from a private sink may come back under its index and
    /// still count as moved off it.
    static let returnWindow: Duration = .seconds(1)

    /// How long after RouteKit unmuted a stream a reading that shows it muted is taken for a
    /// reading older than the unmute (the server answered it first).
    static let unmuteWindow: Duration = .milliseconds(500)

    /// How long a held stream that went away keeps its hold, in case it comes back.
    static let orphanWindow: Duration = .seconds(2)

    /// The server's default sink changed.
    mutating func defaultSinkChanged(_ name: String?, now: ContinuousClock.Instant) -> [MediaAction] {
        defaultSink = name
        return considerResuming(now: now)
    }

    // MARK: The engine

    /// The device model's devices: which outputs are private.
    mutating func devicesChanged(_ devices: [AudioDevice], now: ContinuousClock.Instant) -> [MediaAction] {
        for device in devices {
            guard let output = device.output, let sink = output.deviceName else { continue }
            privacy[OutputKey(sink: sink, port: output.port)] = settings.privateKinds.contains(device.kind)
        }
        return considerResuming(now: now)
    }

    /// Call audio went on or off.
    mutating func callAudioChanged(_ isActive: Bool, now: ContinuousClock.Instant) -> [MediaAction] {
        guard isActive != isCallActive else { return [] }
        isCallActive = isActive
        guard settings.holdsMediaDuringCalls else { return [] }
        return isActive ? holdForCall(now: now) : endCallHold(now: now)
    }

    /// Which streams are calls' changed (a call's process known, a softphone configured):
    /// streams RouteKit holds muted that are calls' now are unmuted at once.
    mutating func callStreamsChanged(_ calls: CallStreams) -> [MediaAction] {
        callStreams = calls
        let calling = holds.keys.filter { streams[$0]?.isCall(by: calls) == true }
        return release(calling.sorted(), now: nil)
    }

    // MARK: Players

    /// Every player of a source, at start.
    mutating func playersReset(_ all: [MediaPlayer], now: ContinuousClock.Instant) -> [MediaAction] {
        var actions: [MediaAction] = []
        for player in all { actions += playerSeen(player, now: now) }
        return actions
    }

    /// A player appeared or changed.
    mutating func playerSeen(_ player: MediaPlayer, now: ContinuousClock.Instant) -> [MediaAction] {
        let previous = players.updateValue(player, forKey: player.name)
        let said = reportedStatus.updateValue(player.status, forKey: player.name)
        var actions: [MediaAction] = said == player.status ? [] : [.emit(.player(player))]
        var resuming: MediaHoldReason?
        if var entry = paused[player.name], previous?.status != player.status || previous == nil {
            if !entry.sawPause && player.status == .paused {
                entry.sawPause = true
                paused[player.name] = entry
                if entry.resumesOnPause {
                    if defaultIsPrivate, !isCallActive {
                        paused.removeValue(forKey: player.name)
                        resuming = entry.reason
                    } else {
                        // The private output it was to resume on went meanwhile: it stays
                        // paused until the default is private again.
                        entry.resumesOnPause = false
                        paused[player.name] = entry
                        defaultWasPublic = true
                    }
                }
            } else if entry.sawPause || player.status == .stopped {
                paused.removeValue(forKey: player.name)
                actions.append(.emit(.forgotten(players: [player.name])))
            }
        }
        if player.status != .playing {
            // Its streams are silent, or about to be: unmute those corked now, the others once
            // they cork or after the grace.
            let deadline = now.advanced(by: settings.pauseGrace)
            var corked: [UInt32] = []
            for (index, hold) in holds where hold.player == player.name {
                if streams[index]?.isCorked == true {
                    corked.append(index)
                } else if hold.releaseAt.map({ $0 > deadline }) ?? true {
                    holds[index]?.releaseAt = deadline
                }
            }
            actions += release(corked.sorted(), now: now)
        }
        if let resuming {
            markResumed([player.name])
            actions += [.play(player.name), .emit(.resumed(reason: resuming, players: [player.name]))]
        }
        return actions
    }

    /// Players just told to play count as playing until they say otherwise: an output going
    /// before their new status is seen pauses them again (their stream would be heard).
    private mutating func markResumed(_ names: [String]) {
        for name in names { players[name]?.status = .playing }
    }

    /// A player went away: nothing of it is resumed.
    mutating func playerVanished(_ name: String) -> [MediaAction] {
        players.removeValue(forKey: name)
        reportedStatus.removeValue(forKey: name)
        for (index, hold) in holds where hold.player == name { holds[index]?.player = nil }
        guard paused.removeValue(forKey: name) != nil else { return [] }
        return [.emit(.forgotten(players: [name]))]
    }

    // MARK: Time

    /// Unmutes what is due, and forgets players paused longer than the resume window ago.
    mutating func tick(now: ContinuousClock.Instant) -> [MediaAction] {
        let due = holds.filter { $0.value.releaseAt.map { $0 <= now } ?? false }.map(\.key).sorted()
        var actions = release(due, now: now)
        let expired = paused.filter { $0.value.reason != .call && $0.value.at.advanced(by: settings.resumeWindow) <= now }
            .map(\.key).sorted()
        for name in expired { paused.removeValue(forKey: name) }
        if !expired.isEmpty { actions.append(.emit(.forgotten(players: expired))) }
        return actions
    }

    /// Everything RouteKit muted, unmuted: the guard is stopping. Paused players stay paused.
    mutating func stopping() -> [MediaAction] {
        release(holds.keys.sorted(), now: nil)
    }

    // MARK: Deciding

    /// Whether the output (sink, port) is private, by what the device model said.
    func isPrivate(sink: String, port: String?) -> Bool {
        privacy[OutputKey(sink: sink, port: port)] ?? privacy[OutputKey(sink: sink, port: nil)] ?? false
    }

    /// Whether the sink, on its active port, is private.
    func isPrivate(_ sink: SinkRecord) -> Bool {
        isPrivate(sink: sink.name, port: sink.activePort)
    }

    /// Whether the server's default output is present and private now.
    private var defaultIsPrivate: Bool {
        guard let name = defaultSink, let sink = sinks.values.first(where: { $0.name == name }) else { return false }
        return isPrivate(sink)
    }

    /// The player whose process plays `stream`; none for a process that makes a call (pausing
    /// it could pause the call).
    private func player(playing stream: StreamRecord) -> MediaPlayer? {
        guard let pid = stream.processID, !makesCall(pid) else { return nil }
        return players.values.filter { $0.processID == pid }.min { $0.name < $1.name }
    }

    /// Whether the process is a call's, or plays a call's stream.
    private func makesCall(_ processID: UInt32) -> Bool {
        callStreams.processIDs.contains(processID)
            || streams.values.contains { $0.processID == processID && $0.isCall(by: callStreams) }
    }

    private mutating func expose(_ indexes: [UInt32], reason: MediaHoldReason, now: ContinuousClock.Instant) -> [MediaAction] {
        guard settings.pausesOnUnplug, !indexes.isEmpty else { return [] }
        var actions: [MediaAction] = []
        var pausing: [String] = []
        var muted: [UInt32] = []
        var unmatched: [UInt32] = []
        for index in indexes.sorted() {
            // A call's own stream follows the call's route at once.
            guard let stream = streams[index], !stream.isCall(by: callStreams) else { continue }
            let player = player(playing: stream)
            if let player, player.status == .playing, player.canPause, !pausing.contains(player.name), paused[player.name] == nil {
                pausing.append(player.name)
                paused[player.name] = PausedPlayer(reason: reason, at: now, sawPause: false)
            }
            guard !stream.isMuted, holds[index] == nil else { continue }
            // A player paused already (by an earlier hold, its pause maybe not landed yet) owns
            // its stream too: held until the stream corks, or the pause grace ends.
            let isPausedByUs = player.map { paused[$0.name] != nil && !pausing.contains($0.name) } ?? false
            let hasPlayer = player.map { $0.status == .playing || pausing.contains($0.name) } ?? false || isPausedByUs
            let releaseAt: ContinuousClock.Instant? =
                if isPausedByUs, player?.status != .playing { now.advanced(by: settings.pauseGrace) }
                else if hasPlayer { nil }
                else { now.advanced(by: settings.unmatchedMuteDuration) }
            holds[index] = StreamHold(reason: reason, player: hasPlayer ? player?.name : nil, releaseAt: releaseAt)
            streams[index]?.isMuted = true
            muted.append(index)
            if !hasPlayer { unmatched.append(index) }
        }
        guard !muted.isEmpty || !pausing.isEmpty else { return [] }
        actions += muted.map { .mute($0) }
        actions += pausing.map { .pause($0) }
        actions.append(.emit(.held(reason: reason, players: pausing, streams: muted, unmatchedStreams: unmatched)))
        defaultWasPublic = !defaultIsPrivate
        return actions
    }

    private mutating func release(_ indexes: [UInt32], now: ContinuousClock.Instant?) -> [MediaAction] {
        var released: [UInt32] = []
        for index in indexes where holds.removeValue(forKey: index) != nil {
            released.append(index)
            if streams[index] != nil { streams[index]?.isMuted = false }
            if let now { unmutedAt[index] = now }
        }
        guard !released.isEmpty else { return [] }
        // Unmuted even when the stream seems gone: a stream that is truly gone refuses it, and
        // one that is back under the same index must not stay muted.
        return released.map { .unmute($0) } + [.emit(.released(streams: released))]
    }

    /// Resumes the players paused on unplug when the default output has turned private again.
    private mutating func considerResuming(now: ContinuousClock.Instant) -> [MediaAction] {
        let waiting = paused.filter { if case .outputLost = $0.value.reason { true } else { false } }
        guard !waiting.isEmpty else { return [] }
        guard defaultIsPrivate else {
            defaultWasPublic = true
            return []
        }
        guard defaultWasPublic, !isCallActive else { return [] }
        defaultWasPublic = false
        var resumed: [String] = []
        var reason: MediaHoldReason?
        for (name, entry) in waiting.sorted(by: { $0.key < $1.key }) {
            if !entry.sawPause, players[name]?.status == .playing {
                // Its pause is still on its way: played once it lands, not before (a Play
                // overtaken by the Pause would leave it paused).
                paused[name]?.resumesOnPause = true
                continue
            }
            paused.removeValue(forKey: name)
            guard entry.at.advanced(by: settings.resumeWindow) > now, players[name]?.status == .paused else { continue }
            resumed.append(name)
            reason = reason ?? entry.reason
        }
        guard let reason else { return [] }
        markResumed(resumed)
        return resumed.map { .play($0) } + [.emit(.resumed(reason: reason, players: resumed))]
    }

    private mutating func holdForCall(now: ContinuousClock.Instant) -> [MediaAction] {
        let pausing = players.values.filter { player in
            player.status == .playing && player.canPause && paused[player.name] == nil && !(player.processID.map(makesCall) ?? false)
        }.map(\.name).sorted()
        for name in pausing { paused[name] = PausedPlayer(reason: .call, at: now, sawPause: false) }
        let pids = Set(players.values.filter { pausing.contains($0.name) }.compactMap(\.processID))
        var muted: [UInt32] = []
        for stream in streams.values.sorted(by: { $0.index < $1.index })
        where stream.isAudible && holds[stream.index] == nil && !stream.isCall(by: callStreams) {
            let isPausedPlayer = stream.processID.map { pids.contains($0) } ?? false
            guard stream.isMedia || isPausedPlayer else { continue }
            holds[stream.index] = StreamHold(reason: .call, player: nil, releaseAt: nil)
            streams[stream.index]?.isMuted = true
            muted.append(stream.index)
        }
        guard !pausing.isEmpty || !muted.isEmpty else { return [] }
        return muted.map { .mute($0) } + pausing.map { .pause($0) }
            + [.emit(.held(reason: .call, players: pausing, streams: muted, unmatchedStreams: []))]
    }

    /// A stream first seen, or first audible, during a call holding media: held as those there
    /// when the call began were (a media stream, or one of a player paused for the call), and
    /// its player paused if it plays. A stream the guard reads only after the call began (it
    /// was starting, or its reading came late) is no exception, nor one PipeWire showed corked
    /// until it was linked. Nil when it is not to be held.
    private mutating func holdForCall(newStream stream: StreamRecord, now: ContinuousClock.Instant) -> [MediaAction]? {
        guard isCallActive, settings.holdsMediaDuringCalls, holds[stream.index] == nil,
              stream.isAudible, !stream.isCall(by: callStreams) else { return nil }
        let player = player(playing: stream)
        let isPausedPlayer = player.map { paused[$0.name]?.reason == .call } ?? false
        guard stream.isMedia || isPausedPlayer else { return nil }
        holds[stream.index] = StreamHold(reason: .call, player: nil, releaseAt: nil)
        streams[stream.index]?.isMuted = true
        var pausing: [String] = []
        if let player, player.status == .playing, player.canPause, paused[player.name] == nil {
            paused[player.name] = PausedPlayer(reason: .call, at: now, sawPause: false)
            pausing.append(player.name)
        }
        return [.mute(stream.index)] + pausing.map { .pause($0) }
            + [.emit(.held(reason: .call, players: pausing, streams: [stream.index], unmatchedStreams: []))]
    }

    private mutating func endCallHold(now: ContinuousClock.Instant) -> [MediaAction] {
        var actions = release(holds.filter { $0.value.reason == .call }.map(\.key).sorted(), now: now)
        let waiting = paused.filter { $0.value.reason == .call }.sorted { $0.key < $1.key }
        for (name, _) in waiting { paused.removeValue(forKey: name) }
        // A call that ends before the player's pause was seen still resumes it: nobody else
        // can have touched it in between (Play on a player still playing changes nothing).
        let resuming = waiting.filter { name, entry in
            guard let player = players[name] else { return false }
            return player.status == .paused || !entry.sawPause
        }.map(\.key)
        markResumed(resuming)
        actions += resuming.map { .play($0) }
        if !resuming.isEmpty { actions.append(.emit(.resumed(reason: .call, players: resuming))) }
        // An output that came back during the call resumes what its loss paused.
        return actions + considerResuming(now: now)
    }
}
