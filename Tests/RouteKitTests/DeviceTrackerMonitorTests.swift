import PulseAudio
@testable import RouteKit
import RouteKitTesting
import Testing

/// A sink's monitor source is in no device: its arrival and its removal, in either order with
/// the sink's, leave the devices as the sink alone makes them.
@Suite("DeviceTracker: monitor sources")
struct DeviceTrackerMonitorTests {
    @Test("the monitor first, then its sink: one device arrives, and goes with the sink, not with the monitor")
    func monitorBeforeSink() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        try server.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        var tracker = try await DeviceTracker.read(from: server)
        let before = tracker.devices

        let headset = try server.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        let monitor = try #require(try await server.sources().first { $0.monitorOfSinkName == "headset" })
        let arrival = try await tracker.apply([SubscriptionEvent(facility: .source, kind: .new, index: monitor.index)], from: server)
        #expect(arrival.isEmpty, "a monitor alone is no device")
        #expect(tracker.devices == before)
        let sinkArrival = try await tracker.apply([SubscriptionEvent(facility: .sink, kind: .new, index: headset.index)], from: server)
        #expect(sinkArrival.devices.added.count == 1)
        #expect(tracker.devices.contains { $0.output?.deviceName == "headset" && $0.input == nil },
                "no monitor as the headset's input")

        // Gone in the order PulseAudio announces it: the monitor first, then the sink.
        let withHeadset = tracker.devices
        let monitorGone = try await tracker.apply([SubscriptionEvent(facility: .source, kind: .remove, index: monitor.index)], from: server)
        #expect(monitorGone.isEmpty)
        #expect(tracker.devices == withHeadset)
        let sinkGone = try await tracker.apply([SubscriptionEvent(facility: .sink, kind: .remove, index: headset.index)], from: server)
        #expect(sinkGone.devices.removed.count == 1)
        #expect(tracker.devices == before)
    }

    @Test("the sink goes first, then its monitor: the device goes with the sink")
    func sinkBeforeMonitor() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        try server.addSink(DeviceBlueprint(name: "speaker", properties: ["device.form_factor": "internal"]))
        let headset = try server.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        let monitor = try #require(try await server.sources().first { $0.monitorOfSinkName == "headset" })
        var tracker = try await DeviceTracker.read(from: server)
        #expect(tracker.devices.count == 2)

        let sinkGone = try await tracker.apply([SubscriptionEvent(facility: .sink, kind: .remove, index: headset.index)], from: server)
        #expect(sinkGone.devices.removed.count == 1)
        let monitorGone = try await tracker.apply([SubscriptionEvent(facility: .source, kind: .remove, index: monitor.index)], from: server)
        #expect(monitorGone.isEmpty)
        #expect(tracker.devices.map { $0.output?.deviceName } == ["speaker"])
        #expect(tracker.state.sources[monitor.index] == nil)
    }
}
