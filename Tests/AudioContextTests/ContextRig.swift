import AudioContext
import Foundation
import Logging
import PulseAudio
import SoundServerSandbox
import TestSupport

/// A sandboxed server with null sinks, the connection the code under test uses, and a second
/// connection that watches the server as any other client would; `pactl` plays the user's
/// volume keys.
struct ContextRig: Sendable {
    let server: SandboxServer
    /// The connection silent mode and capture run on.
    let client: PulseClient
    /// An independent connection: what everyone else sees.
    let observer: PulseClient

    /// Warnings and worse only; `ROUTEKIT_LIVE_TEST_LOG=debug` shows more.
    static var logger: Logger {
        var logger = Logger(label: "routekit.context.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["ROUTEKIT_LIVE_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return logger
    }

    /// Starts a `kind` server with a null sink for each of `sinks`, makes the first the
    /// default, runs `body`, and takes it all down.
    static func run(_ kind: SoundServerKind, sinks: [String], _ body: (ContextRig) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-context"))
            let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-observer"))
            defer {
                client.shutdown()
                observer.shutdown()
            }
            try await client.connect()
            try await observer.connect()
            let rig = ContextRig(server: server, client: client, observer: observer)
            for sink in sinks {
                _ = try await server.loadNullSink(name: sink, properties: ["device.description": sink])
                try await waitUntil("\(sink) listed", observer: observer) { try await observer.sink(named: sink) != nil }
            }
            if let first = sinks.first { try await rig.setDefault(first) }
            try await body(rig)
        }
    }

    /// Runs pactl against the server (the user's volume keys, mute key, default choice).
    func pactl(_ arguments: String...) async throws {
        _ = try await server.pactl(arguments: arguments)
    }

    /// Makes `sink` the default and waits until the observer and the client under test both
    /// see it, renewing each connection meanwhile: a pipewire-pulse connection can miss a
    /// default set by a new client for good (``whileRenewing``; Docs/Reliability.md). The
    /// client's was left out once, and capture on it began waiting for a sink in a full 1.4.2
    /// run. In RouteKit the engine's own check heals its connection; a bare client has none.
    func setDefault(_ sink: String) async throws {
        try await pactl("set-default-sink", sink)
        for connection in [observer, client] {
            try await whileRenewing(connection) {
                try await waitUntil("the default sink \(sink) on \(connection === client ? "the client" : "the observer")",
                                    observer: connection) {
                    try await connection.serverInfo().defaultSinkName == sink
                }
            }
        }
    }

    /// Sets `sink`'s volume (pactl's percent) and mute, and waits until the observer sees both.
    func setLevel(_ sink: String, percent: Int, muted: Bool = false) async throws {
        try await pactl("set-sink-volume", sink, "\(percent)%")
        try await pactl("set-sink-mute", sink, muted ? "1" : "0")
        let volume = ChannelVolumes(channelCount: 2, percent: Double(percent))
        try await waitForLevel(sink, "\(percent)%") { $0.isMuted == muted && Self.near($0.volume, volume) }
    }

    /// Within 0.1 % on every channel: what a server's own rounding of a percentage can give.
    static func near(_ a: ChannelVolumes, _ b: ChannelVolumes) -> Bool {
        a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { max($0, $1) - min($0, $1) <= ChannelVolumes.normal / 1000 }
    }

    /// `sink`'s level as the observer sees it.
    func level(_ sink: String) async throws -> SinkLevel? {
        try await observer.sink(named: sink).map { SinkLevel(volume: $0.volume, isMuted: $0.isMuted) }
    }

    /// Waits, event by event, until the observer sees `sink` at a level that `matches`.
    func waitForLevel(_ sink: String, _ what: String, _ matches: @escaping @Sendable (SinkLevel) -> Bool) async throws {
        let observer = self.observer
        do {
            try await waitUntil("\(sink) at \(what)", observer: observer, timeout: .seconds(10)) {
                try await observer.sink(named: sink).map { matches(SinkLevel(volume: $0.volume, isMuted: $0.isMuted)) } ?? false
            }
        } catch let timedOut as TimedOut {
            throw TimedOut(what: "\(timedOut.what); it is \(String(describing: try? await level(sink)))")
        }
    }
}
