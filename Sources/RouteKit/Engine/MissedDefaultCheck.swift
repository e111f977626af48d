import PulseAudio

/// When the engine reads the default on a new connection (pipewire-pulse only). PipeWire drops
/// a change of its "default" metadata for every connection already there while a client binds
/// that metadata, and pipewire-pulse binds it for every client that connects: a `pactl
/// set-default-sink` can change the default without the engine's connection ever hearing of
/// it (Docs/Reliability.md). So once clients stop coming and going for ``quiet`` (at the
/// latest ``longest`` after the first of them), the default is read where it cannot have been
/// missed. The readings' own clients start no other check.
struct MissedDefaultCheck: Sendable {
    /// How long clients must have stopped coming and going.
    static let quiet = Duration.milliseconds(300)
    /// The longest a check waits after the first client event, under steady coming and going.
    static let longest = Duration.seconds(1)
    /// The most readings' clients remembered (one whose removal never came is forgotten).
    static let ownClientLimit = 8

    /// When the reading is due; nil when no client came or went since the last.
    private(set) var due: ContinuousClock.Instant?
    private var firstEvent: ContinuousClock.Instant?
    /// The clients of the engine's own readings, until they leave.
    private var ownClients: [UInt32] = []
    /// The clients whose events made the reading due. A reading's own client is known only
    /// once it answers, and its events can come first: they are taken back then.
    private var triggeringClients: Set<UInt32> = []

    /// A client came, changed or went at `now`.
    mutating func clientEvent(_ event: SubscriptionEvent, now: ContinuousClock.Instant) {
        if let own = ownClients.firstIndex(of: event.index) {
            if event.kind == .remove { ownClients.remove(at: own) }
            return
        }
        triggeringClients.insert(event.index)
        let first = firstEvent ?? now
        firstEvent = first
        due = min(now + Self.quiet, first + Self.longest)
    }

    /// Whether the reading is due at `now`.
    func isDue(now: ContinuousClock.Instant) -> Bool {
        due.map { now >= $0 } ?? false
    }

    /// The reading starts: nothing is due until clients come or go again.
    mutating func started() {
        due = nil
        firstEvent = nil
        triggeringClients.removeAll()
    }

    /// The reading was made by the client at `index`: its own events are not another client's,
    /// neither those to come nor those that came before its answer (when only they made another
    /// reading due, none is).
    mutating func readBy(client index: UInt32) {
        ownClients.append(index)
        if ownClients.count > Self.ownClientLimit { ownClients.removeFirst() }
        triggeringClients.remove(index)
        if triggeringClients.isEmpty {
            due = nil
            firstEvent = nil
        }
    }
}
