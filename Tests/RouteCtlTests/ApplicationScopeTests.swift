import Foundation
import Glibc
import PulseAudio
import SoundServerSandbox
import Testing
import TestSupport

/// `routectl daemon --scope application --match media.role=phone`: a softphone's streams are
/// routed, the desktop's music and defaults are left alone; real servers, two pacat streams.
@Suite("routectl daemon in application scope")
struct ApplicationScopeTests {
    /// The sink the stream of `process` plays on, by name; nil while it has none.
    static func sink(of process: StreamProcess, _ client: PulseClient) async throws -> String? {
        let stream = try await client.sinkInputs().first { $0.properties["application.process.id"] == String(process.processID) }
        guard let stream else { return nil }
        return try await client.sink(at: stream.sink)?.name
    }

    @Test("only the phone stream goes to the preferred device; the music and the default stay; stop puts it back",
          arguments: SoundServerKind.allCases)
    func phoneOnly(kind: SoundServerKind) async throws {
        try await RouteCtlSession.with(kind) { session in
            let server = session.server
            let phone = try await StreamProcess(on: server, .playback, device: "@DEFAULT_SINK@", properties: ["media.role": "phone"])
            let music = try await StreamProcess(on: server, .playback, device: "@DEFAULT_SINK@", properties: ["media.role": "music"])
            defer {
                phone.stop()
                music.stop()
            }
            try await ServerObservation.waitUntil("both streams on the headset", on: server) { client in
                let phoneSink = try await Self.sink(of: phone, client)
                let musicSink = try await Self.sink(of: music, client)
                return phoneSink == "bt_headset" && musicSink == "bt_headset"
            }

            let daemon = try await session.start(["daemon", "--scope", "application", "--match", "media.role=phone",
                                            "--prefer", "speakerphone"])
            let log = daemon.standardError
            _ = try await log.next("the first line") { $0.hasPrefix("daemon: running") }
            _ = try await log.next("the scope") { $0.hasPrefix("daemon: routing only the streams with media.role=phone") }
            try await ServerObservation.waitUntil("the phone stream on the speaker", on: server) { client in
                try await Self.sink(of: phone, client) == "speaker"
            }
            let client = PulseClient(configuration: .init(server: server.socketPath, reconnectPolicy: .never))
            defer { client.shutdown() }
            try await client.connect()
            #expect(try await Self.sink(of: music, client) == "bt_headset", "the music is not the daemon's")
            #expect(try await ServerObservation.defaultSink(on: server) == "bt_headset", "the default is the desktop's")

            // A new phone stream is routed as it appears.
            let second = try await StreamProcess(on: server, .playback, device: "@DEFAULT_SINK@", properties: ["media.role": "phone"])
            defer { second.stop() }
            try await ServerObservation.waitUntil("the second phone stream on the speaker", on: server) { client in
                try await Self.sink(of: second, client) == "speaker"
            }

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
            try await ServerObservation.waitUntil("the phone stream back on the default", on: server) { client in
                try await Self.sink(of: phone, client) == "bt_headset"
            }
            #expect(try await Self.sink(of: music, client) == "bt_headset")
        }
    }
}
