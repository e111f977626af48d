import BenchmarkSupport
import Foundation
import PulseAudio
import SoundServerSandbox

/// Measures the PulseAudio layer against what users run today, on isolated servers:
///
/// - event delivery: from a command sent by one connection to the change event reaching a
///   consumer, for RouteKit's event stream and for a `pactl subscribe` reader, interleaved
///   in the same run;
/// - listing 100 sinks: `PulseClient.sinks()` against `pactl list sinks`.
///
/// Usage: pulse-benchmarks [pulseaudio|pipewire ...] [--iterations N]
@main
enum PulseBenchmarks {
    static func main() async throws {
        var kinds: [SoundServerKind] = []
        var iterations = 500
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--iterations", let value = arguments.popFirst().flatMap(Int.init) {
                iterations = value
            } else if let kind = SoundServerKind(rawValue: argument) {
                kinds.append(kind)
            } else {
                report("usage: pulse-benchmarks [pulseaudio|pipewire ...] [--iterations N]")
                exit(64)
            }
        }
        if kinds.isEmpty { kinds = SoundServerKind.allCases }

        for kind in kinds {
            try await SandboxServer.withServer(kind) { server in
                report("## \(kind)")
                try await benchmarkEventDelivery(server, iterations: iterations)
                try await benchmarkListing(server, sinkCount: 100, iterations: iterations / 2)
                report("")
            }
        }
    }

    /// Toggles a sink's mute from a driver connection and times the change event's arrival
    /// at RouteKit's consumer and at `pactl subscribe`, alternating the two every round.
    static func benchmarkEventDelivery(_ server: SandboxServer, iterations: Int) async throws {
        _ = try await server.loadNullSink(name: "bench", properties: ["device.description": "Bench"])
        let driver = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-driver"))
        let consumer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-consumer"))
        defer { driver.shutdown(); consumer.shutdown() }
        try await driver.connect()
        try await consumer.connect()
        let sinkIndex = try await consumer.sink(named: "bench")!.index

        report("event delivery: \(iterations) rounds")
        let pactl = try await PactlSubscribe(server: server)
        do {
            try await measureEventDelivery(iterations, driver: driver, consumer: consumer, pactl: pactl, sinkIndex: sinkIndex)
        } catch {
            await pactl.stop()
            throw error
        }
        await pactl.stop()
    }

    /// The rounds of ``benchmarkEventDelivery(_:iterations:)`` once `pactl subscribe` runs
    /// (it stops it not).
    private static func measureEventDelivery(_ iterations: Int, driver: PulseClient, consumer: PulseClient,
                                             pactl: PactlSubscribe, sinkIndex: UInt32) async throws {
        let expected = PulseEvent.subscription(SubscriptionEvent(facility: .sink, kind: .change, index: sinkIndex))
        let expectedLine = "Event 'change' on sink #\(sinkIndex)"
        var pactlLines = pactl.lines.makeAsyncIterator()
        // pactl has subscribed once it reports a change; until then, keep making changes.
        let primer = Task {
            var muted = true
            while !Task.isCancelled {
                try? await driver.setSinkMute("bench", muted: muted)
                muted.toggle()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        while let (_, line) = await pactlLines.next(), line != expectedLine {}
        primer.cancel()
        await primer.value
        // Both listeners skip what the primer caused, up to a marker sink's arrival.
        var events = consumer.events().makeAsyncIterator()
        let marker = try await driver.loadModule("module-null-sink", arguments: "sink_name=bench_marker")
        let markerIndex = try await consumer.sink(named: "bench_marker")!.index
        let markerEvent = PulseEvent.subscription(SubscriptionEvent(facility: .sink, kind: .new, index: markerIndex))
        while let event = await events.next(), event != markerEvent {}
        while let (_, line) = await pactlLines.next(), line != "Event 'new' on sink #\(markerIndex)" {}
        // The marker sink stays: after every round a change to it fences that round's
        // events off from the next, whatever else the server announced meanwhile.
        let fence = PulseEvent.subscription(SubscriptionEvent(facility: .sink, kind: .change, index: markerIndex))
        let fenceLine = "Event 'change' on sink #\(markerIndex)"
        try await driver.setSinkMute("bench", muted: true)
        var fenceMuted = false
        func drainThroughFence() async throws {
            fenceMuted.toggle()
            try await driver.setSinkMute("bench_marker", muted: fenceMuted)
            while let event = await events.next(), event != fence {}
            while let (_, line) = await pactlLines.next(), line != fenceLine {}
        }
        try await drainThroughFence()

        var routeKit: [Duration] = []
        var script: [Duration] = []
        var muted = true
        for _ in 0..<iterations {
            muted.toggle()
            let start = ContinuousClock.now
            // Not awaited: the event may reach the consumers before the driver's answer does.
            let command = Task { [muted] in try await driver.setSinkMute("bench", muted: muted) }
            while let event = await events.next(), event != expected {}
            routeKit.append(ContinuousClock.now - start)
            while let (arrival, line) = await pactlLines.next() {
                if line == expectedLine {
                    script.append(arrival - start)
                    break
                }
            }
            try await command.value
            try await drainThroughFence()
        }
        try await driver.unloadModule(marker)
        let ours = LatencySummary(routeKit), theirs = LatencySummary(script)
        report("event delivery, RouteKit events():      \(ours)")
        report("event delivery, pactl subscribe reader: \(theirs)")
        report("  ratio p50 pactl/RouteKit: \(format(theirs.p50 / ours.p50))x")
    }

    /// Lists 100 sinks with `sinks()` and with `pactl list sinks`.
    static func benchmarkListing(_ server: SandboxServer, sinkCount: Int, iterations: Int) async throws {
        let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-lister"))
        defer { client.shutdown() }
        try await client.connect()
        let existing = try await client.sinks().count
        for number in existing..<sinkCount {
            try await client.loadModule("module-null-sink",
                                        arguments: "sink_name=bench_\(number) sink_properties=device.description=Bench\(number)")
        }
        let listed = try await client.sinks().count
        var ours: [Duration] = []
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            _ = try await client.sinks()
            ours.append(ContinuousClock.now - start)
        }
        var theirs: [Duration] = []
        for _ in 0..<max(iterations / 10, 10) {
            let start = ContinuousClock.now
            _ = try await server.pactl("list", "sinks")
            theirs.append(ContinuousClock.now - start)
        }
        let summary = LatencySummary(ours), baseline = LatencySummary(theirs)
        report("list \(listed) sinks, RouteKit sinks():  \(summary)")
        report("list \(listed) sinks, pactl list sinks: \(baseline)")
        report("  ratio p50 pactl/RouteKit: \(format(baseline.p50 / summary.p50))x")
    }
}
