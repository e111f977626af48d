import PulseAudio

/// What an ``AudioDeviceManager`` changed on the server, and what it found there before, so
/// that ``AudioDeviceManager/stop()`` can put it back. Each entry is restored only while the
/// server still shows the manager's own value: what someone changed since is theirs.
struct RestorationLedger: Sendable {
    /// A stream the manager moved.
    struct MovedStream: Sendable {
        var name: String
        var client: UInt32?
        /// Where it was before the manager first moved it.
        var original: String?
        /// Where the manager last put it.
        var movedTo: String

        /// Why the stream is to be left as it is at stop (nil: move it back to `original`),
        /// given what the server shows under its index now (`shown`: its name, client and the
        /// device it plays on, nil when gone) and the devices present.
        ///
        /// Shown where it was is no one else's move: pipewire-pulse shows a moved stream on
        /// its new device, to the client that moved it, for one second, then on its old one
        /// until the session manager relinks it, which it still will (Docs/Reliability.md).
        /// Such a stream is moved back all the same; on PulseAudio that move changes nothing.
        func reasonToLeave(shown: (name: String, client: UInt32?, device: String?)?, original: String?,
                           present: Set<String>) -> String? {
            guard let shown else { return "gone" }
            if shown.name != name || shown.client != client {
                return "another stream now (\(shown.name), client \(shown.client.map(String.init) ?? "none"))"
            }
            if shown.device != movedTo && shown.device != original { return "moved since (on \(shown.device ?? "no device"))" }
            guard let original else { return "no origin and no default" }
            if !present.contains(original) { return "its origin \(original) gone" }
            if original == movedTo { return "already where it was" }
            return nil
        }
    }

    /// A port or profile the manager switched: the value found, and the value it set.
    struct Switched: Sendable {
        var original: String
        var selected: String
    }

    /// The defaults in use at start.
    private(set) var foundSink: String?
    private(set) var foundSource: String?
    /// The user's configured defaults at start, when they could be read (PipeWire).
    private(set) var configured: ConfiguredDefaults?
    /// The defaults the manager last set.
    private(set) var setSink: String?
    private(set) var setSource: String?
    private(set) var playback: [UInt32: MovedStream] = [:]
    private(set) var recording: [UInt32: MovedStream] = [:]
    private(set) var sinkPorts: [String: Switched] = [:]
    private(set) var sourcePorts: [String: Switched] = [:]
    private(set) var profiles: [String: Switched] = [:]

    init(defaultSink: String? = nil, defaultSource: String? = nil, configured: ConfiguredDefaults? = nil) {
        foundSink = defaultSink
        foundSource = defaultSource
        self.configured = configured
    }

    /// A run begins with the defaults in use now and the user's configured ones: what was
    /// found before is replaced. Entries noted already stay: only profiles recalled from a
    /// one-shot run before (``RouteMemory``) can be there, as every run ends with an empty ledger.
    mutating func begin(defaultSink: String?, defaultSource: String?, configured: ConfiguredDefaults?) {
        foundSink = defaultSink
        foundSource = defaultSource
        self.configured = configured
    }

    /// The defaults last asked for whose answer never came (the run stopped while they were
    /// out): the server may have applied them or not.
    private(set) var unansweredSink: String?
    private(set) var unansweredSource: String?

    mutating func noteDefaultSink(_ sink: String) {
        setSink = sink
        unansweredSink = nil
    }

    mutating func noteDefaultSource(_ source: String) {
        setSource = source
        unansweredSource = nil
    }

    /// The manager asked for `sink` as the default and stopped before the answer came.
    mutating func noteUnansweredDefaultSink(_ sink: String) { unansweredSink = sink }
    /// The manager asked for `source` as the default and stopped before the answer came.
    mutating func noteUnansweredDefaultSource(_ source: String) { unansweredSource = source }

    /// Every default sink the server may show as the manager's: the one it set, and one
    /// asked for whose answer never came.
    var claimedSinks: Set<String> { Set([setSink, unansweredSink].compactMap { $0 }) }
    /// Every default source the server may show as the manager's.
    var claimedSources: Set<String> { Set([setSource, unansweredSource].compactMap { $0 }) }

    mutating func noteMove(stream: UInt32, output: Bool, name: String, client: UInt32?, from: String?, to: String) {
        let entry = MovedStream(name: name, client: client, original: from, movedTo: to)
        if output {
            playback[stream, default: entry].movedTo = to
        } else {
            recording[stream, default: entry].movedTo = to
        }
    }

    mutating func notePort(device: String, output: Bool, original: String, selected: String) {
        if output {
            sinkPorts[device, default: Switched(original: original, selected: selected)].selected = selected
        } else {
            sourcePorts[device, default: Switched(original: original, selected: selected)].selected = selected
        }
    }

    mutating func noteProfile(card: String, original: String, selected: String) {
        profiles[card, default: Switched(original: original, selected: selected)].selected = selected
    }

    /// Forgets a profile entry (call audio put it back itself).
    mutating func forgetProfile(card: String) { profiles.removeValue(forKey: card) }

    /// Forgets a stream that ended: the ledger holds only streams that still exist.
    mutating func forgetStream(_ index: UInt32, output: Bool) {
        if output { playback.removeValue(forKey: index) } else { recording.removeValue(forKey: index) }
    }

    /// Whether the default sink the manager set is still its own to put back: false once
    /// someone else chose another default while the manager's device was there, or after it
    /// had gone (the server's own fallback at the moment it goes does not count).
    private(set) var ownsDefaultSink = true

    /// Someone else chose the default.
    mutating func defaultSinkTaken() { if setSink != nil { ownsDefaultSink = false } }

    /// The manager's own default was confirmed: it is the manager's again.
    mutating func defaultSinkConfirmed() { ownsDefaultSink = true }

    /// Whether there is nothing to put back.
    var isEmpty: Bool {
        claimedSinks.isEmpty && claimedSources.isEmpty && playback.isEmpty && recording.isEmpty && sinkPorts.isEmpty
            && sourcePorts.isEmpty && profiles.isEmpty
    }
}
