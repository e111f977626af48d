import ConcurrencySupport
import Logging
import PulseAudio

/// Puts back what a ``RestorationLedger`` says the engine changed, at ``AudioDeviceManager/stop()``:
/// the defaults first (so that the streams following them go back by themselves, unpinned),
/// then the streams the engine itself moved, then ports and profiles. Each entry only while the
/// server still shows the engine's own value; all of it within a deadline, after which what is
/// left is reported, not waited for.
struct Restorer: Sendable {
    let server: any AudioServer
    let reader: (any ConfiguredDefaultsStore)?
    let logger: Logger
    let deadline: ContinuousClock.Instant

    /// What restoring did to the default sink.
    enum DefaultSinkRestoration: Sendable, Equatable {
        /// Nothing: the manager never set it, or someone else changed it since.
        case untouched
        /// Set it to this sink.
        case set(String)
        /// Forgot the configured default: the server chooses.
        case reset
    }

    /// What was restored, and what could not be.
    struct Outcome: Sendable {
        var sink: DefaultSinkRestoration = .untouched
        var notRestored: [String] = []
    }

    /// Restores `ledger` in order; never throws, never outlives the deadline.
    func restore(_ ledger: RestorationLedger) async -> Outcome {
        var outcome = Outcome()
        guard !ledger.isEmpty else { return outcome }
        outcome.sink = await restoreDefaults(ledger, &outcome.notRestored)
        await restoreStreams(ledger, &outcome.notRestored)
        await restorePorts(ledger, &outcome.notRestored)
        await restoreProfiles(ledger, &outcome.notRestored)
        return outcome
    }

    // MARK: Defaults

    private func restoreDefaults(_ ledger: RestorationLedger, _ missed: inout [String]) async -> DefaultSinkRestoration {
        guard !ledger.claimedSinks.isEmpty || !ledger.claimedSources.isEmpty else { return .untouched }
        guard let info = await ask("read the server's defaults", { try await $0.serverInfo() }, &missed) else { return .untouched }
        var configuredNow: ConfiguredDefaults?
        if ledger.configured != nil, let reader {
            configuredNow = await bounded { try await reader.configuredDefaults() }
        }
        var result = DefaultSinkRestoration.untouched
        // A default asked for whose answer never came (the run stopped meanwhile) counts as
        // the manager's too: the server may have applied it.
        let claimedSinks = ledger.claimedSinks, claimedSources = ledger.claimedSources
        if let setSink = ledger.setSink ?? ledger.unansweredSink,
           let names = await present([setSink, ledger.unansweredSink, ledger.foundSink, ledger.configured?.sink], output: true,
                                     &missed) {
            let ours = configuredNow.map { $0.sink.map(claimedSinks.contains) ?? false }
                ?? (info.defaultSinkName.map(claimedSinks.contains) ?? false || (!names.contains(setSink) && ledger.ownsDefaultSink))
            logger.debug("default sink judged", metadata: [
                "set": "\(claimedSinks.sorted())", "default": "\(info.defaultSinkName ?? "none")",
                "configured": "\(configuredNow.map { $0.sink ?? "none" } ?? "unread")",
                "owned": "\(ledger.ownsDefaultSink)", "ours": "\(ours)",
            ])
            if ours {
                result = await restoreDefault(configured: ledger.configured.map { $0.sink }, found: ledger.foundSink,
                                              present: names, output: true, &missed)
            }
        }
        if let setSource = ledger.setSource ?? ledger.unansweredSource,
           let names = await present([setSource, ledger.unansweredSource, ledger.foundSource, ledger.configured?.source],
                                     output: false, &missed) {
            let ours = configuredNow.map { $0.source.map(claimedSources.contains) ?? false }
                ?? (info.defaultSourceName.map(claimedSources.contains) ?? false || !names.contains(setSource))
            if ours {
                _ = await restoreDefault(configured: ledger.configured.map { $0.source }, found: ledger.foundSource,
                                         present: names, output: false, &missed)
            }
        }
        return result
    }

    /// Which of `names` the server has, each looked up by name: the restore costs the same
    /// few requests with 3 devices or 400 (listing every sink asks each sink's thread for its
    /// latency on PulseAudio, which on a loaded machine with hundreds of them outlasted the
    /// restore's deadline and left the default unrestored). Nil when a lookup fails.
    private func present(_ names: [String?], output: Bool, _ missed: inout [String]) async -> Set<String>? {
        let wanted = Array(Set(names.compactMap { $0 })).sorted()
        return await ask("look up the \(output ? "sinks" : "sources") \(wanted.joined(separator: ", "))", { server in
            var found: Set<String> = []
            for name in wanted {
                let exists = output ? try await server.sink(named: name) != nil : try await server.source(named: name) != nil
                if exists { found.insert(name) }
            }
            return found
        }, &missed)
    }

    /// With the configured default known: that one again, or none. Otherwise the default
    /// found at start, if it is still there, else the server's own choice.
    private func restoreDefault(configured: String??, found: String?, present: Set<String>, output: Bool,
                                _ missed: inout [String]) async -> DefaultSinkRestoration {
        let what = output ? "sink" : "source"
        switch configured {
        case .some(.some(let name)):
            if !present.contains(name), let reader {
                // pipewire-pulse refuses to make an absent device the default, but WirePlumber
                // keeps such a choice for when the device returns: write it back as it was.
                await attempt("restore the configured default \(what) \(name) (absent now)", &missed) { _ in
                    try await reader.configure(name, output: output)
                }
                return .reset
            }
            await attempt("restore the configured default \(what) \(name)", &missed) { try await setDefault($0, name, output) }
            return .set(name)
        case .some(.none):
            // WirePlumber 0.4 prefers devices configured before (a history in its state file),
            // so removing the key alone leaves the manager's device in use. Configuring the
            // device found first puts it back on top; removing the key then leaves none.
            var restored = DefaultSinkRestoration.reset
            if let found, present.contains(found) {
                await attempt("restore the default \(what) \(found)", &missed) { try await setDefault($0, found, output) }
                restored = .set(found)
            }
            await attempt("forget the configured default \(what)", &missed) { try await resetDefault($0, output) }
            return restored
        case .none:
            if let found, present.contains(found) {
                await attempt("restore the default \(what) \(found)", &missed) { try await setDefault($0, found, output) }
                return .set(found)
            }
            // PipeWire forgets the configured default; PulseAudio keeps its current choice.
            await attempt("give the default \(what) back to the server", &missed) { try await resetDefault($0, output) }
            return .reset
        }
    }

    private func setDefault(_ server: any AudioServer, _ name: String, _ output: Bool) async throws {
        if output { try await server.setDefaultSink(name) } else { try await server.setDefaultSource(name) }
    }

    private func resetDefault(_ server: any AudioServer, _ output: Bool) async throws {
        if output { try await server.resetDefaultSink() } else { try await server.resetDefaultSource() }
    }

    // MARK: Streams, ports, profiles

    /// The streams the engine moved (and so pinned), back where they were, unless someone
    /// moved them elsewhere since. Moving one back to what is the default again unpins it.
    private func restoreStreams(_ ledger: RestorationLedger, _ missed: inout [String]) async {
        guard !ledger.playback.isEmpty || !ledger.recording.isEmpty else { return }
        // A stream moved before the server had placed it (a new stream on PipeWire) goes to
        // the default, which is where it was headed.
        let defaults = await ask("read the server's defaults", { try await $0.serverInfo() }, &missed)
        if !ledger.playback.isEmpty,
           let sinks = await ask("list sinks", { try await $0.sinks() }, &missed),
           let streams = await ask("list playback streams", { try await $0.sinkInputs() }, &missed) {
            await restore(ledger.playback, "stream", unplacedGoTo: defaults?.defaultSinkName, devices: sinks.map { ($0.index, $0.name) },
                          streams: streams.map { ($0.index, $0.name, $0.client, $0.sink) }, &missed) { server, index, original in
                try await server.moveSinkInput(index, toSink: original)
            }
        }
        if !ledger.recording.isEmpty,
           let sources = await ask("list sources", { try await $0.sources() }, &missed),
           let streams = await ask("list recording streams", { try await $0.sourceOutputs() }, &missed) {
            await restore(ledger.recording, "recording", unplacedGoTo: defaults?.defaultSourceName,
                          devices: sources.map { ($0.index, $0.name) },
                          streams: streams.map { ($0.index, $0.name, $0.client, $0.source) }, &missed) { server, index, original in
                try await server.moveSourceOutput(index, toSource: original)
            }
        }
    }

    /// Moves each stream of `moved` that is still where the engine put it, or shown where it
    /// was, back to where it was.
    private func restore(_ moved: [UInt32: RestorationLedger.MovedStream], _ what: String, unplacedGoTo fallback: String?,
                         devices: [(index: UInt32, name: String)],
                         streams: [(index: UInt32, name: String, client: UInt32?, device: UInt32)],
                         _ missed: inout [String],
                         move: @escaping @Sendable (any AudioServer, UInt32, String) async throws -> Void) async {
        let names = Dictionary(devices.map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first })
        let present = Set(names.values)
        let listed = Dictionary(streams.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, entry) in moved.sorted(by: { $0.key < $1.key }) {
            // Why an entry is left as it is, for the debug log: the listed failures of
            // application scope on PipeWire 1.4 left streams unrestored with no word.
            let original = entry.original ?? fallback
            let shown = listed[index].map { ($0.name, $0.client, names[$0.device]) }
            let reason = entry.reasonToLeave(shown: shown, original: original, present: present)
            guard let original, reason == nil else {
                logger.debug("\(what) left as it is", metadata: ["index": "\(index)", "name": "\(entry.name)",
                                                                "movedTo": "\(entry.movedTo)", "reason": "\(reason ?? "")"])
                continue
            }
            await attempt("move \(what) #\(index) back to \(original)", &missed) { server in
                try await move(server, index, original)
            }
        }
    }

    /// The ports the engine switched, back where nobody switched them since; each device
    /// looked up by name, as the defaults' are.
    private func restorePorts(_ ledger: RestorationLedger, _ missed: inout [String]) async {
        for (name, switched) in ledger.sinkPorts.sorted(by: { $0.key < $1.key }) {
            guard let sink = await ask("look up the sink \(name)", { try await $0.sink(named: name) }, &missed),
                  sink?.activePortName == switched.selected else { continue }
            await attempt("restore port \(switched.original) of \(name)", &missed) {
                try await $0.setSinkPort(name, port: switched.original)
            }
        }
        for (name, switched) in ledger.sourcePorts.sorted(by: { $0.key < $1.key }) {
            guard let source = await ask("look up the source \(name)", { try await $0.source(named: name) }, &missed),
                  source?.activePortName == switched.selected else { continue }
            await attempt("restore port \(switched.original) of \(name)", &missed) {
                try await $0.setSourcePort(name, port: switched.original)
            }
        }
    }

    private func restoreProfiles(_ ledger: RestorationLedger, _ missed: inout [String]) async {
        guard !ledger.profiles.isEmpty, let cards = await ask("list cards", { try await $0.cards() }, &missed) else { return }
        for card in cards {
            guard let switched = ledger.profiles[card.name], card.activeProfileName == switched.selected else { continue }
            await attempt("restore profile \(switched.original) of \(card.name)", &missed) {
                try await $0.setCardProfile(card.name, profile: switched.original)
            }
        }
    }

    // MARK: Bounded requests

    /// One request, or nil (noted in `missed`) when it fails or the deadline passes first.
    private func ask<Value: Sendable>(_ what: String, _ request: @escaping @Sendable (any AudioServer) async throws -> Value,
                                      _ missed: inout [String]) async -> Value? {
        let server = self.server
        if let value = await bounded({ try await request(server) }) { return value }
        missed.append(what)
        return nil
    }

    private func attempt(_ what: String, _ missed: inout [String],
                         _ body: @escaping @Sendable (any AudioServer) async throws -> Void) async {
        let server = self.server
        if await bounded({ try await body(server); return true }) == true {
            logger.debug("restored", metadata: ["what": "\(what)"])
        } else {
            logger.warning("could not \(what)")
            missed.append(what)
        }
    }

    /// Runs `body` until the deadline; nil when it throws or the deadline passes (the request
    /// is then cancelled, which ends it at once).
    private func bounded<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) async -> Value? {
        await untilDeadline(deadline, body)
    }
}
