import PulseAudio
import SoundServerSandbox
import Synchronization

/// Drives the PulseAudio layer hard enough to show a leak: 10 000 subscription events
/// consumed and 1 000 introspection calls, then a clean shutdown. Run it under valgrind
/// with `scripts/leak-check`; it exits non-zero if anything went missing.
///
/// Usage: pulse-soak [pulseaudio|pipewire] [events] [calls]
@main
enum PulseSoak {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let kind = arguments.first.flatMap(SoundServerKind.init(rawValue:)) ?? .pulseaudio
        let eventTarget = arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
        let callTarget = arguments.dropFirst(2).first.flatMap(Int.init) ?? 1_000

        try await SandboxServer.withServer(kind) { server in
            _ = try await server.loadNullSink(name: "soak", properties: ["device.description": "Soak"])
            let consumer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "soak-consumer"))
            let driver = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "soak-driver"))
            try await consumer.connect()
            try await driver.connect()

            // Count events about the soak sink until there are enough; the driver keeps
            // toggling its mute (each toggle is at least one sink change event).
            let events = consumer.events()
            let seen = Atomic<Int>(0)
            let counter = Task {
                for await event in events {
                    guard case .subscription = event else { continue }
                    if seen.add(1, ordering: .relaxed).newValue >= eventTarget { break }
                }
            }
            var toggles = 0
            while seen.load(ordering: .relaxed) < eventTarget, toggles < 3 * eventTarget {
                try await driver.setSinkMute("soak", muted: toggles % 2 == 0)
                toggles += 1
            }
            if seen.load(ordering: .relaxed) < eventTarget {
                // The server is not announcing every change: let the count end where it is.
                _ = try await consumer.serverInfo()
                counter.cancel()
            }
            await counter.value
            let delivered = seen.load(ordering: .relaxed)

            var answered = 0
            for call in 0..<callTarget {
                switch call % 5 {
                case 0: answered += try await consumer.sinks().count
                case 1: answered += try await consumer.sources().count
                case 2: answered += try await consumer.serverInfo().serverName.isEmpty ? 0 : 1
                case 3: answered += try await consumer.sinkInputs().count + 1
                default: answered += try await consumer.sink(named: "soak") == nil ? 0 : 1
                }
            }
            consumer.shutdown()
            driver.shutdown()
            print("pulse-soak \(kind): \(delivered) events delivered (\(toggles) mute toggles), \(callTarget) calls, \(answered) answers")
            if delivered < eventTarget {
                print("pulse-soak: expected \(eventTarget) events")
                throw SoakFailure()
            }
        }
    }
}

struct SoakFailure: Error {}
