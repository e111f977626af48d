/// Call detection's decisions, as a value: fed the server's playback and capture streams and
/// the time, it says which calls begin, change and end, and when it next needs the time. It
/// performs nothing and reads no clock; ``StreamCallDetector`` drives it.
///
/// The rules (Docs/CallDetection.md tells why):
/// - A stream takes part when ``CallDetectionRule/matches(_:)`` says so; its application is
///   its process id, else its client, else its application name (``CallStream/owner``).
/// - An application is in a call once a playback and a capture stream of its own that take
///   part have both run (not corked) for ``CallDetectionRule/minimumDuration``: a microphone
///   opened for a moment, or a capture with no playback beside it, is no call.
/// - The call lasts while the application has a playback and a capture stream that take part,
///   corked or not (a call on hold is still a call). Once either side has none, the call
///   ends after ``CallDetectionRule/hold``, unless a stream of that side comes back first (a
///   stream relinked or moved by the server comes back under a new index).
/// - A call's application is the one its streams described when it started.
/// - Each application has at most one call; calls of different applications are separate,
///   each with its own id.
package struct CallDetectionMachine: Sendable {
    /// The rule in force.
    package private(set) var rule: CallDetectionRule
    /// The next moment ``tick(now:)`` has something to decide; nil when nothing waits for time.
    package private(set) var deadline: ContinuousClock.Instant?

    private var streams: [CallStream.Key: Tracked] = [:]
    private var calls: [CallStream.Owner: Ongoing] = [:]
    private var lastID: UInt64 = 0

    /// A stream that has an owner, and since when it runs (nil while corked).
    private struct Tracked: Sendable {
        var stream: CallStream
        var owner: CallStream.Owner
        var runningSince: ContinuousClock.Instant?
    }

    /// A call in progress, and since when one of its sides is missing.
    private struct Ongoing: Sendable {
        var call: DetectedCall
        var incompleteSince: ContinuousClock.Instant?
    }

    /// No streams, no calls.
    package init(rule: CallDetectionRule) {
        self.rule = rule
    }

    /// The calls in progress, oldest first.
    package var ongoingCalls: [DetectedCall] {
        calls.values.map(\.call).sorted { $0.id < $1.id }
    }

    // MARK: Inputs

    /// Every stream the server has now (at start, after a reconnection). A stream still there
    /// under the same index keeps the time it has run.
    package mutating func reset(_ present: [CallStream], now: ContinuousClock.Instant) -> [CallDetectionAction] {
        let previous = streams
        streams = [:]
        for stream in present {
            track(stream, previous: previous[stream.key], now: now)
        }
        return decide(now: now)
    }

    /// A stream appeared or changed.
    package mutating func streamSeen(_ stream: CallStream, now: ContinuousClock.Instant) -> [CallDetectionAction] {
        let previous = streams.removeValue(forKey: stream.key)
        track(stream, previous: previous, now: now)
        return decide(now: now)
    }

    /// A stream went away.
    package mutating func streamRemoved(_ key: CallStream.Key, now: ContinuousClock.Instant) -> [CallDetectionAction] {
        guard streams.removeValue(forKey: key) != nil else { return [] }
        return decide(now: now)
    }

    /// The time passed: calls due to start or end do.
    package mutating func tick(now: ContinuousClock.Instant) -> [CallDetectionAction] {
        decide(now: now)
    }

    /// A new rule, from now on: calls whose streams no longer take part end after the hold.
    package mutating func ruleChanged(_ rule: CallDetectionRule, now: ContinuousClock.Instant) -> [CallDetectionAction] {
        self.rule = rule
        return decide(now: now)
    }

    /// Detection stops: every call in progress ends.
    package mutating func stopping() -> [CallDetectionAction] {
        defer {
            calls = [:]
            deadline = nil
        }
        return ongoingCalls.map { .callEnded($0.id) }
    }

    private mutating func track(_ stream: CallStream, previous: Tracked?, now: ContinuousClock.Instant) {
        guard let owner = stream.owner else { return }
        let kept = previous.flatMap { $0.owner == owner ? $0.runningSince : nil }
        streams[stream.key] = Tracked(stream: stream, owner: owner, runningSince: stream.isCorked ? nil : kept ?? now)
    }

    // MARK: Deciding

    /// The streams that take part, by application.
    private func participants() -> [CallStream.Owner: [Tracked]] {
        Dictionary(grouping: streams.values.filter { rule.matches($0.stream.properties) }, by: \.owner)
    }

    private mutating func decide(now: ContinuousClock.Instant) -> [CallDetectionAction] {
        let groups = participants()
        var actions: [CallDetectionAction] = []
        var wakes: [ContinuousClock.Instant] = []
        for (owner, ongoing) in calls.sorted(by: { $0.value.call.id < $1.value.call.id }) {
            let members = groups[owner] ?? []
            var updated = ongoing
            var current = Self.call(ongoing.call.id, of: members)
            current.application = ongoing.call.application
            if current.playbackStreams.isEmpty || current.captureStreams.isEmpty {
                let since = ongoing.incompleteSince ?? now
                if now >= since.advanced(by: rule.hold) {
                    calls.removeValue(forKey: owner)
                    actions.append(.callEnded(ongoing.call.id))
                    continue
                }
                updated.incompleteSince = since
                wakes.append(since.advanced(by: rule.hold))
            } else {
                updated.incompleteSince = nil
            }
            if current.playbackStreams != ongoing.call.playbackStreams || current.captureStreams != ongoing.call.captureStreams {
                updated.call = current
                actions.append(.callChanged(current))
            }
            calls[owner] = updated
        }
        for (owner, members) in groups where calls[owner] == nil {
            guard let since = Self.pairedSince(members) else { continue }
            let due = since.advanced(by: rule.minimumDuration)
            guard now >= due else {
                wakes.append(due)
                continue
            }
            lastID += 1
            let call = Self.call(DetectedCall.ID(rawValue: lastID), of: members)
            calls[owner] = Ongoing(call: call)
            actions.append(.callStarted(call))
        }
        deadline = wakes.min()
        return actions.sorted { Self.order($0) < Self.order($1) }
    }

    /// Since when `members` have had a playback and a capture stream running together.
    private static func pairedSince(_ members: [Tracked]) -> ContinuousClock.Instant? {
        let playback = members.filter { $0.stream.key.direction == .playback }.compactMap(\.runningSince).min()
        let capture = members.filter { $0.stream.key.direction == .capture }.compactMap(\.runningSince).min()
        guard let playback, let capture else { return nil }
        return max(playback, capture)
    }

    /// The call `id` made of `members`, its application read from its playback streams first.
    private static func call(_ id: DetectedCall.ID, of members: [Tracked]) -> DetectedCall {
        let ordered = members.map(\.stream).sorted { ($0.key.direction == .capture ? 1 : 0, $0.key.index) < ($1.key.direction == .capture ? 1 : 0, $1.key.index) }
        let applications = ordered.map(\.application)
        let application = DetectedApplication(name: applications.lazy.compactMap(\.name).first,
                                              processID: applications.lazy.compactMap(\.processID).first,
                                              processBinary: applications.lazy.compactMap(\.processBinary).first)
        return DetectedCall(id: id, application: application,
                            playbackStreams: ordered.filter { $0.key.direction == .playback }.map(\.key.index),
                            captureStreams: ordered.filter { $0.key.direction == .capture }.map(\.key.index))
    }

    /// Actions in a stable order: ends first, then changes, then starts, each by call id.
    private static func order(_ action: CallDetectionAction) -> (Int, UInt64) {
        switch action {
        case .callEnded(let id): (0, id.rawValue)
        case .callChanged(let call): (1, call.id.rawValue)
        case .callStarted(let call): (2, call.id.rawValue)
        }
    }
}
