import Foundation
import ProcessRunner
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// `resetDefaultSink()` and `resetDefaultSource()` (a NULL name) on real servers.
///
/// - pipewire-pulse removes `default.configured.audio.sink` / `.source` from the `default`
///   metadata: the user's choice is forgotten.
/// - PulseAudio 16.1 does not forget: `command_set_default_sink_or_source` (protocol-native.c)
///   looks the name up with `pa_namereg_get`, which reads NULL as "the default sink", and
///   configures what it finds. The sink in use stays, now configured, and a better sink
///   appearing later does not take over. These tests pin that down, because PulseClient's
///   documentation and SimulatedServer say that PulseAudio goes back to its own choice.
@Suite("Resetting the configured default on real servers")
struct DefaultResetTests {
    /// The better default on both servers: PulseAudio's `pa_device_init_priority` gives a
    /// null sink 1000 for `device.class=abstract` and 900 more for `device.form_factor=headphone`;
    /// WirePlumber ranks by `priority.session`.
    static let high = ["device.form_factor": "headphone", "priority.session": "2000", "device.description": "High Priority"]
    /// The worse default: 1000 on PulseAudio, `priority.session` 1000 on WirePlumber.
    static let low = ["priority.session": "1000", "device.description": "Low Priority"]

    /// A sink both servers rank above the others: 9000 + 1000 on PulseAudio for
    /// `device.class=sound`, `priority.session` 3000 on WirePlumber.
    static let top = ["device.class": "sound", "priority.session": "3000", "device.description": "Top Priority"]

    /// Loads the low sink, then the high one, and waits until the server has made the high one
    /// the default by itself.
    private func loadSinks(_ server: SandboxServer, observer: PulseClient) async throws {
        _ = try await server.loadNullSink(name: "low_sink", properties: Self.low)
        _ = try await server.loadNullSink(name: "high_sink", properties: Self.high)
        // WirePlumber's own choice, made as pactl's clients come and go: the observer's
        // connection can miss it on pipewire-pulse (``whileRenewing``).
        try await whileRenewing(observer) {
            try await waitUntil("the server to choose high_sink by itself", observer: observer) {
                let sinks = try await observer.sinks().map(\.name)
                let chosen = try await observer.serverInfo().defaultSinkName
                return sinks.contains("low_sink") && sinks.contains("high_sink") && chosen == "high_sink"
            }
        }
    }

    @Test("resetDefaultSink: PipeWire forgets the configured sink, PulseAudio 16 pins the one in use", arguments: SoundServerKind.allCases)
    func resetSink(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, observer in
            try await loadSinks(server, observer: observer)
            try await client.setDefaultSink("low_sink")
            // pw-metadata binding beside it may make the observer's connection miss it (``whileRenewing``).
            try await whileRenewing(observer) {
                try await waitUntil("low_sink the default", observer: observer) {
                    try await observer.serverInfo().defaultSinkName == "low_sink"
                }
            }
            if kind == .pipewire {
                try await waitForMetadata("low_sink configured", on: server) {
                    $0[sinkKey].map { $0.contains("\"low_sink\"") } ?? false
                }
            }

            try await client.resetDefaultSink()
            switch kind {
            case .pulseaudio:
                // NULL is the sink in use: low_sink stays, and stays configured, so that even a
                // sink better than any other does not take over when it appears.
                #expect(try await observer.serverInfo().defaultSinkName == "low_sink")
                try await expectPinned(sink: "low_sink", source: nil, server: server, observer: observer)
            case .pipewire:
                // The key is gone. (Which sink WirePlumber 0.4 then uses is its own business:
                // it prefers the sinks configured before, so low_sink may well stay.)
                try await waitForMetadata("default.configured.audio.sink removed", on: server) { $0[sinkKey] == nil }
                #expect(try await observer.serverInfo().defaultSinkName != nil)
            }
        }
    }

    @Test("resetDefaultSource: PipeWire forgets the configured source, PulseAudio 16 pins the one in use", arguments: SoundServerKind.allCases)
    func resetSource(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, observer in
            try await loadSinks(server, observer: observer)
            let chosen = try #require(try await observer.serverInfo().defaultSourceName)
            #expect(chosen == "high_sink.monitor")
            try await client.setDefaultSource("low_sink.monitor")
            try await whileRenewing(observer) {
                try await waitUntil("low_sink.monitor the default source", observer: observer) {
                    try await observer.serverInfo().defaultSourceName == "low_sink.monitor"
                }
            }
            if kind == .pipewire {
                try await waitForMetadata("low_sink configured as the source", on: server) {
                    $0[sourceKey].map { $0.contains("\"low_sink\"") } ?? false
                }
            }

            try await client.resetDefaultSource()
            switch kind {
            case .pulseaudio:
                // As for sinks: the source in use stays, configured.
                #expect(try await observer.serverInfo().defaultSourceName == "low_sink.monitor")
                try await expectPinned(sink: nil, source: "low_sink.monitor", server: server, observer: observer)
            case .pipewire:
                try await waitForMetadata("default.configured.audio.source removed", on: server) { $0[sourceKey] == nil }
                // The sink side was never configured and stays so.
                #expect(try await observer.serverInfo().defaultSinkName == "high_sink")
            }
        }
    }

    /// On PulseAudio: loads the top sink and checks that the given default stays where it is,
    /// configured. Without a configured sink, the default sink moves to the top sink (which
    /// shows that it is the best).
    private func expectPinned(sink: String?, source: String?, server: SandboxServer, observer: PulseClient) async throws {
        _ = try await server.loadNullSink(name: "top_sink", properties: Self.top)
        try await waitUntil("top_sink loaded", observer: observer) {
            try await observer.sinks().contains { $0.name == "top_sink" }
        }
        let info = try await observer.serverInfo()
        #expect(info.defaultSinkName == sink ?? "top_sink", "a configured sink stays; without one the best sink wins")
        if let source { #expect(info.defaultSourceName == source, "the configured source stays") }
    }

    @Test("resetting when nothing is configured is accepted and changes nothing", arguments: SoundServerKind.allCases)
    func resetUnconfigured(kind: SoundServerKind) async throws {
        try await withSandbox(kind) { server, client, observer in
            try await loadSinks(server, observer: observer)
            try await client.resetDefaultSink()
            try await client.resetDefaultSource()
            let info = try await observer.serverInfo()
            #expect(info.defaultSinkName == "high_sink")
            #expect(info.defaultSourceName == "high_sink.monitor")
            if kind == .pipewire {
                let keys = try await metadataKeys(on: server)
                #expect(keys[sinkKey] == nil)
                #expect(keys[sourceKey] == nil)
            }
        }
    }
}

// MARK: - PipeWire's default metadata, through pw-metadata

private let sinkKey = "default.configured.audio.sink"
private let sourceKey = "default.configured.audio.source"

/// The keys of subject 0 of the sandbox's `default` metadata and their values, as
/// `pw-metadata -n default 0` prints them.
private func metadataKeys(on server: SandboxServer) async throws -> [String: String] {
    let output = try await runMetadataTool(["-n", "default", "0"], on: server)
    var keys: [String: String] = [:]
    for line in output.split(separator: "\n") where line.hasPrefix("update: id:0 key:'") {
        let rest = line.dropFirst("update: id:0 key:'".count)
        guard let keyEnd = rest.range(of: "' value:'"), let typeStart = rest.range(of: "' type:'", options: .backwards) else {
            continue
        }
        keys[String(rest[..<keyEnd.lowerBound])] = String(rest[keyEnd.upperBound..<typeStart.lowerBound])
    }
    return keys
}

/// Runs pw-metadata with the sandbox's environment and returns its output; fails on a
/// non-zero status.
private func runMetadataTool(_ arguments: [String], on server: SandboxServer) async throws -> String {
    let run = try await ChildProcess.run(["/usr/bin/pw-metadata"] + arguments, environment: server.environment,
                                         timeLimit: .seconds(10))
    guard run.termination == .exited(0) else {
        throw MetadataToolFailed(termination: run.termination, timedOut: run.timedOut)
    }
    return run.standardOutput
}

private struct MetadataToolFailed: Error, CustomStringConvertible {
    var termination: Termination
    var timedOut: Bool
    var description: String { "pw-metadata " + (timedOut ? "did not finish within 10 s" : "failed: \(termination)") }
}

/// Waits until the sandbox's `default` metadata satisfies `condition`: checks it once, then
/// again each time `pw-metadata --monitor` prints a change. (Clearing a configured default
/// may change nothing that pipewire-pulse reports, so PulseAudio events cannot wake the check.)
private func waitForMetadata(_ what: String, on server: SandboxServer,
                             _ condition: @escaping @Sendable ([String: String]) -> Bool) async throws {
    let monitor = try await PipeWireMetadataMonitor(server: server)
    defer { monitor.stop() }
    let changes = monitor.changes
    try await withTimeout(what) {
        if condition(try await metadataKeys(on: server)) { return }
        for await _ in changes {
            if condition(try await metadataKeys(on: server)) { return }
        }
        throw TimedOut(what: "\(what) (pw-metadata --monitor ended)")
    }
}
