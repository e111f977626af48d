import Glibc
import PulseAudio
import SoundServerSandbox
import TestSupport
import Testing

/// The softphone rig itself, on both real servers: two real baresip calling each other over
/// loopback, seen from the server by an independent connection, the way RouteKit will see
/// an application that knows nothing of it.
@Suite("Softphone rig (two baresip over loopback)")
struct SoftphoneRigTests {
    @Test("a call gives each phone one playback and one capture stream with media.role=phone on the default devices; hanging up ends them",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func callStreams(kind: SoundServerKind) async throws {
        try await SoftphoneRig.run(kind) { server, observer in
            try await SoftphonePair.with(server: server) { phones in
                for phone in phones.phones {
                    #expect(try await phone.streams(seenBy: observer).isEmpty, "no stream before the call")
                }

                try await phones.call()
                for phone in phones.phones {
                    let streams = try await SoftphoneRig.waitForCallStreams(of: phone, observer: observer)
                    let pid = String(phone.processID)
                    for properties in streams.playback.map(\.properties) + streams.capture.map(\.properties) {
                        #expect(properties["media.role"] == "phone", "\(phone.uri): \(properties)")
                        #expect(properties["application.process.id"] == pid)
                        #expect(properties["application.process.binary"] == "baresip")
                    }
                    #expect(try await observer.sink(at: streams.playback[0].sink)?.name == SoftphoneRig.speaker)
                    #expect(try await observer.source(at: streams.capture[0].source)?.name == SoftphoneRig.microphone)
                    #expect(streams.playback[0].isMuted == false)
                    #expect(streams.capture[0].isMuted == false)
                }

                try await phones.hangUp()
                for phone in phones.phones {
                    try await waitUntil("\(phone.uri)'s streams gone after hanging up", observer: observer) {
                        try await phone.streams(seenBy: observer).isEmpty
                    }
                }
                for phone in phones.phones {
                    #expect(phone.isRunning, "a phone stays up after its call")
                }
            }
        }
    }

    @Test("a port taken between the rig's choice and baresip's start: the phone starts on other ports and calls",
          .timeLimit(.minutes(1)), arguments: TakenBaresipPort.allCases)
    func portTakenMeanwhile(taken: TakenBaresipPort) async throws {
        try await SoftphoneRig.run(.pulseaudio) { server, _ in
            let first = try LoopbackSocket.baresipPorts()
            let holder = try taken.take(from: first)
            var chosen: [BaresipPorts] = []
            let phone = try await Softphone.start("caller", server: server) {
                let ports = chosen.isEmpty ? first : try LoopbackSocket.baresipPorts()
                chosen.append(ports)
                return ports
            }
            let callee = try await Softphone.start("callee", server: server)
            do {
                #expect(chosen.count == 2, "started again once: \(chosen)")
                #expect(phone.uri.hasSuffix(":\(chosen.last?.sip ?? 0)"))
                // Both its SIP and its control socket are its own: a call goes through.
                let mark = await phone.messages.count, calleeMark = await callee.messages.count
                try await phone.dial(callee.uri)
                try await phone.event("CALL_ESTABLISHED", after: mark)
                try await callee.event("CALL_ESTABLISHED", after: calleeMark)
                try await phone.hangUp()
            } catch {
                await phone.stop(); await callee.stop()
                throw error
            }
            await phone.stop()
            await callee.stop()
            withExtendedLifetime(holder) {}
        }
    }

    @Test("stopping the phones mid-call leaves no baresip process and no client of theirs on the server",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func stopLeavesNothing(kind: SoundServerKind) async throws {
        try await SoftphoneRig.run(kind) { server, observer in
            let phones = try await SoftphonePair.start(server: server)
            let pids = phones.phones.map(\.processID)
            do {
                try await phones.call()
                for phone in phones.phones {
                    _ = try await SoftphoneRig.waitForCallStreams(of: phone, observer: observer)
                }
            } catch {
                await phones.stop()
                throw error
            }

            await phones.stop()
            for phone in phones.phones {
                #expect(!phone.isRunning)
            }
            for pid in pids {
                #expect(kill(pid, 0) == -1 && errno == ESRCH, "process \(pid) is gone")
            }
            let names = pids.map(String.init)
            try await waitUntil("no client of the phones left on the server", observer: observer) {
                try await observer.clients().allSatisfy { !names.contains($0.properties["application.process.id"] ?? "") }
            }
            #expect(try await observer.sinkInputs().isEmpty)
            #expect(try await observer.sourceOutputs().isEmpty)
        }
    }
}

/// What the rig's tests share: a sandbox server with a loudspeaker and a microphone as its
/// defaults, and an observer connection of the test's own.
enum SoftphoneRig {
    static let speaker = "softphone_speaker"
    static let microphone = "softphone_mic"

    /// Runs `body` with a server of `kind` set up for calls and an observer on it.
    static func run(_ kind: SoundServerKind, _ body: (SandboxServer, PulseClient) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            let observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "softphone-rig-observer",
                                                            reconnectPolicy: .never))
            defer { observer.shutdown() }
            try await observer.connect()
            _ = try await server.loadNullSink(name: speaker, properties: ["device.form_factor": "internal", "device.description": "Speaker"])
            _ = try await server.loadStreamingMicrophone(name: microphone)
            _ = try await server.pactl("set-default-sink", speaker)
            _ = try await server.pactl("set-default-source", microphone)
            // Set by new clients: the observer's connection may miss it (``whileRenewing``).
            try await whileRenewing(observer) {
                try await waitUntil("the speaker and microphone as defaults", observer: observer) {
                    let info = try await observer.serverInfo()
                    return info.defaultSinkName == speaker && info.defaultSourceName == microphone
                }
            }
            try await body(server, observer)
        }
    }

    /// Waits until `phone` has exactly one playback and one capture stream, and returns them.
    static func waitForCallStreams(of phone: Softphone, observer: PulseClient) async throws -> SoftphoneStreams {
        try await waitUntil("\(phone.uri)'s playback and capture streams", observer: observer) {
            let streams = try await phone.streams(seenBy: observer)
            return streams.playback.count == 1 && streams.capture.count == 1
        }
        return try await phone.streams(seenBy: observer)
    }
}

/// Which of the ports picked for baresip another process takes before baresip binds it.
enum TakenBaresipPort: String, CaseIterable, CustomTestStringConvertible {
    case sipOverUDP, sipOverTCP, tls, control

    var testDescription: String { rawValue }

    /// Takes that port of `ports`.
    func take(from ports: BaresipPorts) throws -> TakenPort {
        switch self {
        case .sipOverUDP: try LoopbackSocket.take(ports.sip, udp: true)
        case .sipOverTCP: try LoopbackSocket.take(ports.sip, udp: false)
        case .tls: try LoopbackSocket.take(ports.sip + 1, udp: false)
        case .control: try LoopbackSocket.take(ports.control, udp: false)
        }
    }
}
