import Logging
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

    mutating func noteDefaultSink(_ sink: String) { setSink = sink }
    mutating func noteDefaultSource(_ source: String) { setSource = source }

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
    mutating func forgetProfile(card: String) -> Switched? { profiles.removeValue(forKey: card) }

    // MARK: Restoring

    /// What restoring did to the default sink.
    enum DefaultSinkRestoration: Sendable, Equatable {
        /// Nothing: the manager never set it, or someone else changed it since.
        case untouched
        /// Set it to this sink.
        case set(String)
        /// Forgot the configured default: the server chooses.
        case reset
    }

    /// Puts back, in order: streams, defaults, ports, then profiles. Failures are logged;
    /// restoring goes on with the next entry. `reader` re-reads PipeWire's configured
    /// defaults, to tell the manager's own from a choice made since.
    func restore(on server: any AudioServer, reader: (any ConfiguredDefaultsReader)?,
                 logger: Logger) async -> DefaultSinkRestoration {
        await restoreStreams(on: server, logger: logger)
        let sink = await restoreDefaults(on: server, reader: reader, logger: logger)
        await restorePorts(on: server, logger: logger)
        await restoreProfiles(on: server, logger: logger)
        return sink
    }

    private func restoreStreams(on server: any AudioServer, logger: Logger) async {
        guard !playback.isEmpty || !recording.isEmpty else { return }
        let sinks = Dictionary(((try? await server.sinks()) ?? []).map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a })
        let sources = Dictionary(((try? await server.sources()) ?? []).map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a })
        let sinkNames = Set(sinks.values), sourceNames = Set(sources.values)
        for stream in (try? await server.sinkInputs()) ?? [] {
            guard let moved = playback[stream.index], moved.name == stream.name, moved.client == stream.client,
                  sinks[stream.sink] == moved.movedTo, let original = moved.original, sinkNames.contains(original) else { continue }
            await attempt("move stream #\(stream.index) back to \(original)", logger) {
                try await server.moveSinkInput(stream.index, toSink: original)
            }
        }
        for stream in (try? await server.sourceOutputs()) ?? [] {
            guard let moved = recording[stream.index], moved.name == stream.name, moved.client == stream.client,
                  sources[stream.source] == moved.movedTo, let original = moved.original,
                  sourceNames.contains(original) else { continue }
            await attempt("move recording #\(stream.index) back to \(original)", logger) {
                try await server.moveSourceOutput(stream.index, toSource: original)
            }
        }
    }

    /// A default is the manager's to put back while it is still the manager's: the server
    /// still uses it, or (the manager's sink gone) the server fell back by itself while it
    /// still holds the manager's choice as the configured one. On PipeWire the configured
    /// default read again says exactly whose it is.
    private func restoreDefaults(on server: any AudioServer, reader: (any ConfiguredDefaultsReader)?,
                                 logger: Logger) async -> DefaultSinkRestoration {
        guard setSink != nil || setSource != nil, let info = try? await server.serverInfo() else { return .untouched }
        let configuredNow = configured == nil ? nil : try? await reader?.configuredDefaults()
        var result = DefaultSinkRestoration.untouched
        var configureSink: (@Sendable (String) async throws -> Void)?
        var configureSource: (@Sendable (String) async throws -> Void)?
        if let reader {
            configureSink = { try await reader.configure($0, output: true) }
            configureSource = { try await reader.configure($0, output: false) }
        }
        if let setSink {
            let names = Set(((try? await server.sinks()) ?? []).map(\.name))
            let ours = configuredNow.map { $0.sink == setSink }
                ?? (info.defaultSinkName == setSink || !names.contains(setSink))
            if ours {
                result = await restoreDefault(configured: configured.map { $0.sink }, found: foundSink, present: names,
                                              logger: logger, set: { try await server.setDefaultSink($0) },
                                              reset: { try await server.resetDefaultSink() }, configure: configureSink)
            }
        }
        if let setSource {
            let names = Set(((try? await server.sources()) ?? []).map(\.name))
            let ours = configuredNow.map { $0.source == setSource }
                ?? (info.defaultSourceName == setSource || !names.contains(setSource))
            if ours {
                _ = await restoreDefault(configured: configured.map { $0.source }, found: foundSource, present: names,
                                         logger: logger, set: { try await server.setDefaultSource($0) },
                                         reset: { try await server.resetDefaultSource() }, configure: configureSource)
            }
        }
        return result
    }

    /// With the configured default known: that one again, or none. Otherwise the default
    /// found at start, if it is still there, else the server's own choice.
    private func restoreDefault(configured: String??, found: String?, present: Set<String>, logger: Logger,
                                set: @Sendable (String) async throws -> Void,
                                reset: @Sendable () async throws -> Void,
                                configure: (@Sendable (String) async throws -> Void)?) async -> DefaultSinkRestoration {
        switch configured {
        case .some(.some(let name)):
            if !present.contains(name), let configure {
                // pipewire-pulse refuses to make an absent device the default, but WirePlumber
                // keeps such a choice for when the device returns: write it back as it was.
                await attempt("restore the configured default \(name) (absent now)", logger) { try await configure(name) }
                return .reset
            }
            await attempt("restore the configured default \(name)", logger) { try await set(name) }
            return .set(name)
        case .some(.none):
            // WirePlumber 0.4 prefers devices configured before (a history in its state file),
            // so removing the key alone leaves the manager's device in use. Configuring the
            // device found first puts it back on top; removing the key then leaves none.
            var restored = DefaultSinkRestoration.reset
            if let found, present.contains(found) {
                await attempt("restore the default \(found)", logger) { try await set(found) }
                restored = .set(found)
            }
            await attempt("forget the configured default", logger) { try await reset() }
            return restored
        case .none:
            if let found, present.contains(found) {
                await attempt("restore the default \(found)", logger) { try await set(found) }
                return .set(found)
            }
            // PipeWire forgets the configured default; PulseAudio keeps its current choice.
            await attempt("give the default back to the server", logger) { try await reset() }
            return .reset
        }
    }

    private func restorePorts(on server: any AudioServer, logger: Logger) async {
        if !sinkPorts.isEmpty {
            for sink in (try? await server.sinks()) ?? [] {
                guard let switched = sinkPorts[sink.name], sink.activePortName == switched.selected else { continue }
                await attempt("restore port \(switched.original) of \(sink.name)", logger) {
                    try await server.setSinkPort(sink.name, port: switched.original)
                }
            }
        }
        if !sourcePorts.isEmpty {
            for source in (try? await server.sources()) ?? [] {
                guard let switched = sourcePorts[source.name], source.activePortName == switched.selected else { continue }
                await attempt("restore port \(switched.original) of \(source.name)", logger) {
                    try await server.setSourcePort(source.name, port: switched.original)
                }
            }
        }
    }

    private func restoreProfiles(on server: any AudioServer, logger: Logger) async {
        guard !profiles.isEmpty else { return }
        for card in (try? await server.cards()) ?? [] {
            guard let switched = profiles[card.name], card.activeProfileName == switched.selected else { continue }
            await attempt("restore profile \(switched.original) of \(card.name)", logger) {
                try await server.setCardProfile(card.name, profile: switched.original)
            }
        }
    }

    private func attempt(_ what: String, _ logger: Logger, _ body: () async throws -> Void) async {
        do {
            try await body()
            logger.debug("restored", metadata: ["what": "\(what)"])
        } catch {
            logger.warning("could not \(what)", metadata: ["error": "\(error)"])
        }
    }
}
