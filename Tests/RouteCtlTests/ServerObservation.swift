import Foundation
import ProcessRunner
import PulseAudio
import SoundServerSandbox
import TestSupport

/// What the tests read from a sandboxed server themselves, to check what routectl did.
enum ServerObservation {
    /// The server's default sink now, through pactl.
    static func defaultSink(on server: SandboxServer) async throws -> String {
        try await server.pactl("get-default-sink").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits, event by event, until the server's default sink is `name` (PipeWire applies a
    /// new default a moment after answering): checks once, then after each server change,
    /// its connection renewed once a second of waiting (``whileRenewing(_:every:_:)``).
    static func waitForDefaultSink(_ name: String, on server: SandboxServer, timeout: Duration = .seconds(10)) async throws {
        let client = PulseClient(configuration: .init(server: server.socketPath, applicationName: "routectl-tests",
                                                      reconnectPolicy: .never))
        defer { client.shutdown() }
        let events = client.events()
        try await client.connect()
        do {
            try await withTimeout("the default sink to become \(name)", timeout) {
                if try await client.serverInfo().defaultSinkName == name { return }
                try await whileRenewing(client) {
                    for await event in events {
                        guard case .subscription(let change) = event, change.facility == .server else { continue }
                        if try await client.serverInfo().defaultSinkName == name { return }
                    }
                }
            }
        } catch let error as TimedOut {
            let last = try? await client.serverInfo().defaultSinkName
            throw TimedOut(what: "\(error.what); it is \(last ?? "none")")
        }
    }

    /// Waits until the stream of the process `pid` plays on the sink `sinkName`: linked to it
    /// and not corked. Being listed is not enough: pipewire-pulse lists a stream before it
    /// links it (linked to no sink, corked), and a sink that goes in that moment exposes
    /// nothing that played on it (PipeWire 1.4.2 under the full suite).
    static func waitUntilPlaying(_ pid: String, on sinkName: String, server: SandboxServer) async throws {
        try await waitUntil("the stream of \(pid) playing on \(sinkName)", on: server) { client in
            guard let sink = try await client.sink(named: sinkName) else { return false }
            return try await client.sinkInputs().contains { stream in
                stream.properties["application.process.id"] == pid && stream.sink == sink.index && !stream.isCorked
            }
        }
    }

    /// PipeWire's configured default sink (`default.configured.audio.sink` in the `default`
    /// metadata, which `pactl set-default-sink` writes and which outlives every client), read
    /// with `pw-metadata`; nil when none is configured.
    static func configuredDefaultSink(on server: SandboxServer) async throws -> String? {
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let run = try await ChildProcess.run(["/usr/bin/pw-metadata", "-n", "default", "0"], environment: environment,
                                             timeLimit: .seconds(10))
        guard run.termination == .exited(0), !run.timedOut else {
            throw Failed(message: "pw-metadata " + (run.timedOut ? "did not finish within 10 s" : "ended with \(run.termination)"))
        }
        let output = run.standardOutput.split(separator: "\n").map(String.init)
        guard let line = output.first(where: { $0.contains("key:'default.configured.audio.sink'") }) else { return nil }
        // value:'{ "name": "virtual_out" }'
        guard let nameKey = line.range(of: "\"name\""),
              let open = line.range(of: "\"", range: nameKey.upperBound..<line.endIndex),
              let close = line.range(of: "\"", range: open.upperBound..<line.endIndex) else { return line }
        return String(line[open.upperBound..<close.lowerBound])
    }

    /// An observation that could not be made.
    struct Failed: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
