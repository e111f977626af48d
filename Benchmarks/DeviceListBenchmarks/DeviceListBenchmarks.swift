import BenchmarkSupport
import Foundation
import PulseAudio
import RouteKit
import RouteKitTesting
import SoundServerSandbox

/// The cost of keeping the device list current, with 10 and with 500 virtual devices: the
/// time from a device's plug (or unplug) to `DeviceList` publishing the change, and the
/// server lookups it cost, against re-reading everything on every event (what a
/// `pactl subscribe` script that re-runs `pactl list` does).
///
/// Usage: devicelist-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--devices N ...]
@main
enum DeviceListBenchmarks {
    static func main() async throws {
        var kinds: [SoundServerKind] = []
        var rounds = 200
        var deviceCounts: [Int] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--rounds", let value = arguments.popFirst().flatMap(Int.init) {
                rounds = value
            } else if argument == "--devices", let value = arguments.popFirst().flatMap(Int.init) {
                deviceCounts.append(value)
            } else if let kind = SoundServerKind(rawValue: argument) {
                kinds.append(kind)
            } else {
                report("usage: devicelist-benchmarks [pulseaudio|pipewire ...] [--rounds N] [--devices N ...]")
                exit(64)
            }
        }
        if kinds.isEmpty { kinds = SoundServerKind.allCases }
        if deviceCounts.isEmpty { deviceCounts = [10, 500] }

        // In process first: no server competes for the CPU, so this is DeviceList's own cost.
        for count in deviceCounts {
            try await measureSimulated(devices: count, rounds: rounds * 5)
        }
        for kind in kinds {
            for count in deviceCounts {
                try await SandboxServer.withServer(kind) { server in
                    try await measure(server, kind: kind, devices: count, rounds: rounds)
                }
            }
        }
    }

    /// Plugs and unplugs a sink on a simulated server holding `count` devices: the time from
    /// the plug to DeviceList's change, with no process switch and no other process's work in it.
    static func measureSimulated(devices count: Int, rounds: Int) async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        for number in 0..<count {
            _ = try server.addSink(DeviceBlueprint(name: "dev_\(number)", properties: ["device.form_factor": "internal"]))
        }
        let list = DeviceList(server: server)
        try await list.start()
        defer { Task { await list.stop() } }
        var changes = await list.changes().makeAsyncIterator()
        let before = await list.statistics
        var samples: [Duration] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            _ = try server.addSink(DeviceBlueprint(name: "probe", properties: ["device.bus": "usb"]))
            while let change = await changes.next(), !change.added.contains("probe") {}
            samples.append(ContinuousClock.now - start)
            try server.removeSink(named: "probe")
            while let change = await changes.next(), !change.removed.contains("probe") {}
        }
        let after = await list.statistics
        let events = after.events - before.events
        let perEvent = (after.handlingTime - before.handlingTime) / events
        let ownWork = (after.handlingTime - before.handlingTime - (after.lookupTime - before.lookupTime)) / events
        report("simulated, \(count) devices: DeviceList plug → change    \(LatencySummary(samples))")
        report("simulated, \(count) devices: DeviceList per event: \(format(perEvent.milliseconds * 1000)) µs, "
               + "\(format(ownWork.milliseconds * 1000)) µs of its own work (\(events) events)")
    }

    static func measure(_ server: SandboxServer, kind: SoundServerKind, devices count: Int, rounds: Int) async throws {
        let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-devices"))
        let driver = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "bench-driver"))
        defer { client.shutdown(); driver.shutdown() }
        try await client.connect()
        try await driver.connect()
        for number in 0..<count {
            try await driver.loadModule("module-null-sink",
                                        arguments: "sink_name=dev_\(number) sink_properties=device.form_factor=internal")
        }
        let list = DeviceList(server: client)
        try await list.start()
        defer { Task { await list.stop() } }
        var changes = await list.changes().makeAsyncIterator()

        var incremental: [Duration] = []
        let before = await list.statistics
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            let module = try await driver.loadModule("module-null-sink", arguments: "sink_name=probe sink_properties=device.bus=usb")
            while let change = await changes.next(), !change.added.contains("probe") {}
            incremental.append(ContinuousClock.now - start)
            try await driver.unloadModule(module)
            while let change = await changes.next(), !change.removed.contains("probe") {}
        }
        let after = await list.statistics
        let eventCount = after.events - before.events
        let lookups = Double(after.lookups - before.lookups) / Double(eventCount)
        let handling = (after.handlingTime - before.handlingTime) / eventCount
        let ownWork = (after.handlingTime - before.handlingTime - (after.lookupTime - before.lookupTime)) / eventCount

        // The baseline: on each plug, read every card, sink and source and rebuild every device.
        var fullReread: [Duration] = []
        let events = client.events()
        var iterator = events.makeAsyncIterator()
        for _ in 0..<max(rounds / 4, 10) {
            let start = ContinuousClock.now
            let module = try await driver.loadModule("module-null-sink", arguments: "sink_name=probe sink_properties=device.bus=usb")
            // Like a script: on every sink event, read everything again, until the device shows.
            var found = false
            while !found, let event = await iterator.next() {
                guard case .subscription(let change) = event, change.facility == .sink else { continue }
                async let cards = client.cards(), sinks = client.sinks(), sources = client.sources(), info = client.serverInfo()
                let (allCards, allSinks, allSources, serverInfo) = try await (cards, sinks, sources, info)
                let devices = DeviceModel.devices(cards: allCards, sinks: allSinks, sources: allSources,
                                                  defaultSinkName: serverInfo.defaultSinkName,
                                                  defaultSourceName: serverInfo.defaultSourceName)
                found = devices.contains { $0.id == "probe" }
            }
            fullReread.append(ContinuousClock.now - start)
            try await driver.unloadModule(module)
        }
        let ours = LatencySummary(incremental), theirs = LatencySummary(fullReread)
        report("\(kind), \(count) devices: DeviceList plug → change    \(ours)")
        report("\(kind), \(count) devices: DeviceList per event: \(format(handling.milliseconds)) ms with the lookup, "
               + "\(format(ownWork.milliseconds * 1000)) µs of its own work (\(eventCount) events, \(format(lookups)) lookups/event)")
        report("\(kind), \(count) devices: re-read everything per event \(theirs)")
    }
}
