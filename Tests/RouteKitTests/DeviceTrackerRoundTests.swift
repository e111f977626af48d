import PulseAudio
@testable import RouteKit
import RouteKitTesting
import Testing

/// A batch's lookups go out while the loop goes on: an answer about an object that had an
/// event after it was asked may be older than that event, and is not applied.
@Suite("DeviceTracker: answers older than the events that followed them")
struct DeviceTrackerRoundTests {
    static let serverChange = SubscriptionEvent(facility: .server, kind: .change, index: 0)

    @Test("the defaults answered before a later change of them are dropped, to be asked again")
    func staleDefaults() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        for name in ["first", "second", "third"] { try server.addSink(DeviceBlueprint(name: name)) }
        try await server.setDefaultSink("first")
        var tracker = try await DeviceTracker.read(from: server)
        #expect(tracker.defaultSinkName == "first")

        // The default moves; its lookup is answered, then it moves again before the answer
        // is applied.
        try await server.setDefaultSink("second")
        var (_, round) = tracker.begin([Self.serverChange])
        #expect(round.asksForDefaults)
        let answers = try await DeviceTracker.lookUp(round, on: server)
        try await server.setDefaultSink("third")
        _ = tracker.applyRemovals([Self.serverChange], during: &round)
        _ = tracker.finish(round, answers: answers)
        #expect(tracker.defaultSinkName == "first", "the answer naming \"second\" is older than the change that followed it")

        // The loop's next turn asks again, and sees what is true now.
        let change = try await tracker.apply([Self.serverChange], from: server)
        #expect(change.devices.defaultsChanged)
        #expect(tracker.defaultSinkName == "third")
    }

    @Test("a device removed while its lookup was out stays removed; answers about others apply")
    func removedDuringLookup() async throws {
        let server = SimulatedServer()
        defer { server.shutdown() }
        try server.addSink(DeviceBlueprint(name: "speaker"))
        var tracker = try await DeviceTracker.read(from: server)
        let headset = try server.addSink(DeviceBlueprint(name: "headset", properties: ["device.bus": "usb", "device.form_factor": "headset"]))
        let other = try server.addSink(DeviceBlueprint(name: "other"))

        var (_, round) = tracker.begin([
            SubscriptionEvent(facility: .sink, kind: .new, index: headset.index),
            SubscriptionEvent(facility: .sink, kind: .new, index: other.index),
        ])
        let answers = try await DeviceTracker.lookUp(round, on: server)
        try server.removeSink(named: "headset")
        let removed = tracker.applyRemovals([SubscriptionEvent(facility: .sink, kind: .remove, index: headset.index)], during: &round)
        #expect(removed.isEmpty, "not known yet, so nothing to remove")
        let change = tracker.finish(round, answers: answers)
        #expect(!tracker.devices.contains { $0.output?.deviceName == "headset" }, "answered before it went: not applied")
        #expect(tracker.devices.contains { $0.output?.deviceName == "other" })
        #expect(change.devices.added.count == 1)
    }
}
