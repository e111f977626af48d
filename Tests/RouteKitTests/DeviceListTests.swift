import TestSupport
import PulseAudio
import RouteKit
import SoundServerSandbox
import Testing

/// The device list on real servers, with virtual devices following the project's convention.
@Suite("Device list on real servers")
struct DeviceListTests {
    static let conventions: [(name: String, properties: [String: String], kind: AudioDeviceKind)] = [
        ("bt_headset", ["device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "BT Headset"], .bluetooth),
        ("usb_headset", ["device.bus": "usb", "device.form_factor": "headset", "device.description": "USB Headset"], .wiredHeadset),
        ("handset", ["device.form_factor": "handset", "device.description": "Earpiece"], .earpiece),
        ("builtin", ["device.form_factor": "internal", "device.description": "Built-in Speaker"], .speakerphone),
        ("box", ["device.form_factor": "speaker", "device.description": "Speaker Box"], .speakerphone),
        ("plain_null", [:], .virtual),
    ]

    private func withList(_ kind: SoundServerKind,
                          _ body: @Sendable (SandboxServer, PulseClient, DeviceList) async throws -> Void) async throws {
        try await SandboxServer.withServer(kind) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-devices"))
            defer { client.shutdown() }
            try await client.connect()
            let list = DeviceList(server: client)
            try await list.start()
            defer { Task { await list.stop() } }
            try await body(server, client, list)
        }
    }

    @Test("virtual devices are classified by their properties, monitors are not devices",
          arguments: SoundServerKind.allCases)
    func conventionKinds(kind: SoundServerKind) async throws {
        try await withList(kind) { server, _, list in
            for device in Self.conventions {
                _ = try await server.loadNullSink(name: device.name, properties: device.properties)
            }
            try await waitUntil("every virtual device", list: list) { devices in
                Self.conventions.allSatisfy { expected in devices.contains { $0.id.rawValue == expected.name } }
            }
            let devices = await list.devices
            for expected in Self.conventions {
                let device = try #require(devices.first { $0.id.rawValue == expected.name })
                #expect(device.kind == expected.kind, "\(expected.name)")
                #expect(device.output?.deviceName == expected.name)
                #expect(device.availability == .available)
            }
            #expect(!devices.contains { $0.id.rawValue.hasSuffix(".monitor") })
            #expect(devices.first { $0.id.rawValue == "bt_headset" }?.bus == "bluetooth")
            #expect(devices.first { $0.id.rawValue == "usb_headset" }?.formFactor == "headset")
        }
    }

    @Test("plug and unplug arrive as changes, and a device keeps its id when it returns",
          arguments: SoundServerKind.allCases)
    func plugUnplugStableID(kind: SoundServerKind) async throws {
        try await withList(kind) { server, _, list in
            let changes = await list.changes()
            var iterator = changes.makeAsyncIterator()
            let module = try await server.loadNullSink(name: "bt_headset", properties: Self.conventions[0].properties)
            var added: Set<AudioDevice.ID> = []
            while !added.contains("bt_headset"), let change = await iterator.next() { added.formUnion(change.added) }
            let first = try #require(await list.device("bt_headset"))

            try await server.unloadModule(module)
            var removed: Set<AudioDevice.ID> = []
            while !removed.contains("bt_headset"), let change = await iterator.next() { removed.formUnion(change.removed) }
            #expect(await list.device("bt_headset") == nil)

            _ = try await server.loadNullSink(name: "bt_headset", properties: Self.conventions[0].properties)
            try await waitUntil("the headset back", list: list) { $0.contains { $0.id == "bt_headset" } }
            let again = try #require(await list.device("bt_headset"))
            #expect(again.id == first.id)
            #expect(again.kind == .bluetooth)
        }
    }

    @Test("the active device follows the default sink", arguments: SoundServerKind.allCases)
    func activeFollowsDefault(kind: SoundServerKind) async throws {
        try await withList(kind) { server, client, list in
            _ = try await server.loadNullSink(name: "builtin", properties: Self.conventions[3].properties)
            _ = try await server.loadNullSink(name: "bt_headset", properties: Self.conventions[0].properties)
            // Listed on the list's own connection before it is named there: pipewire-pulse
            // answers a load before the sink is listed, and keeps a view per client.
            try await waitUntil("both listed", list: list) { devices in
                devices.contains { $0.id == "bt_headset" } && devices.contains { $0.id == "builtin" }
            }
            // On PipeWire a default changed while a pactl plugged a device can miss the list's
            // connection for good: the waits renew it (the list then reads the defaults afresh).
            let renewing = kind == .pipewire ? client : nil
            try await client.setDefaultSink("bt_headset")
            try await waitUntil("bt_headset active", list: list, renewing: renewing) { devices in
                devices.first { $0.id == "bt_headset" }?.isActive == true
                    && devices.first { $0.id == "builtin" }?.isActive == false
            }
            try await client.setDefaultSink("builtin")
            try await waitUntil("builtin active", list: list, renewing: renewing) { devices in
                devices.first { $0.id == "builtin" }?.isActive == true
                    && devices.filter(\.isActive).count == 1
            }
        }
    }

    @Test("an event costs a lookup of its object, not a re-read of everything", arguments: SoundServerKind.allCases)
    func incremental(kind: SoundServerKind) async throws {
        try await withList(kind) { server, _, list in
            for number in 0..<20 {
                _ = try await server.loadNullSink(name: "filler_\(number)", properties: ["device.form_factor": "internal"])
            }
            try await waitUntil("20 devices", list: list) { $0.count >= 20 }
            let before = await list.statistics
            _ = try await server.loadNullSink(name: "one_more", properties: Self.conventions[1].properties)
            try await waitUntil("the new device", list: list) { $0.contains { $0.id == "one_more" } }
            let after = await list.statistics
            #expect(after.fullReads == before.fullReads)
            // At most one lookup an event (none for removals and module or client events).
            let lookups = after.lookups - before.lookups
            let events = after.events - before.events
            #expect(lookups >= 1)
            #expect(lookups <= events)
        }
    }
}
