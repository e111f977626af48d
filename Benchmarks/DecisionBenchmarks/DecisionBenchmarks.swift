import BenchmarkSupport
import Foundation
import Logging
import RouteKit
import RouteKitTesting

/// The engine's decision on its own: a headset appearing and going on a simulated server, in
/// process, with no server and no other process competing. What the engine's clock calls the
/// decision (the device list built, the route machine's update, its actions) is printed at
/// p50 / p99 for each device count, beside the other steps, so that a change to the decision
/// can be measured in a few seconds; the live benchmarks (`route-benchmarks`) measure the
/// same steps against a real server.
///
/// Usage: decision-benchmarks [--rounds N] [--devices N ...]
@main
enum DecisionBenchmarks {
    static func main() async throws {
        var rounds = 2_000
        var deviceCounts: [Int] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--rounds", let value = arguments.popFirst().flatMap(Int.init), value > 0 {
                rounds = value
            } else if argument == "--devices", let value = arguments.popFirst().flatMap(Int.init), value >= 0 {
                deviceCounts.append(value)
            } else {
                report("usage: decision-benchmarks [--rounds N] [--devices N ...]")
                exit(64)
            }
        }
        if deviceCounts.isEmpty { deviceCounts = [3, 50] }
        for count in deviceCounts {
            try await measure(otherDevices: count, rounds: rounds)
        }
    }

    /// A loudspeaker, `count` other sinks, and a Bluetooth headset plugged and unplugged
    /// `rounds` times under preferences for Bluetooth, then the loudspeaker: each plug and each
    /// unplug is one switch.
    static func measure(otherDevices count: Int, rounds: Int) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        _ = try server.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        for number in 0..<count {
            _ = try server.addSink(DeviceBlueprint(name: "hdmi_\(number)", properties: ["device.bus": "pci", "device.form_factor": "tv"]))
        }
        var logger = Logger(label: "decision-benchmarks")
        logger.logLevel = .error
        let manager = AudioDeviceManager(server: server, preferences: [.kind(.bluetooth), .kind(.speakerphone)], logger: logger)
        var events = manager.events().makeAsyncIterator()
        try await manager.start()
        let headset = DeviceBlueprint(name: "bluez_output.probe", properties: ["device.bus": "bluetooth", "device.form_factor": "headset"])
        for _ in 0..<rounds {
            _ = try server.addSink(headset)
            try await waitForRoute(on: headset.name, in: &events)
            try server.removeSink(named: headset.name)
            try await waitForRoute(on: "speaker", in: &events)
        }
        let timings = manager.switchTimings
        await manager.stop()
        func line(_ name: String, _ step: (SwitchTiming) -> Duration) -> String {
            let summary = LatencySummary(timings.map(step))
            return "\(name) \(format(summary.p50 * 1000)) / \(format(summary.p99 * 1000)) µs"
        }
        report("simulated, speaker + \(count) other + a headset, \(timings.count) switches (p50 / p99): "
               + [line("decision", \.decision), line("lookups", \.lookups), line("queue hop", \.queueHop),
                  line("total", \.total)].joined(separator: "; "))
    }

    /// Waits for the route to reach the device whose output is `sink`.
    static func waitForRoute(on sink: String, in events: inout AsyncStream<AudioRouteEvent>.Iterator) async throws {
        while let event = await events.next() {
            if case .routeChanged(_, let to, _) = event, to?.output?.deviceName == sink { return }
        }
        throw CancellationError()
    }
}
