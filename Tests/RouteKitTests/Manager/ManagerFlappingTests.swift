import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// A Bluetooth reconnect storm on real servers: a headset plugged and unplugged 100 times as
/// fast as the server loads and unloads it. The route must not move more often than the
/// device does, and must end where the policy says for the devices left.
@Suite("AudioDeviceManager on real servers: flapping devices")
struct ManagerFlappingTests {
    static let cycles = 100

    @Test("100 plug/unplug cycles: no more route changes than device changes, and the right device at the end",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases, [false, true])
    func reconnectStorm(kind: SoundServerKind, endsPlugged: Bool) async throws {
        let earpiece = ConventionDevice.earpiece()
        let distractor = ConventionDevice.hdmi()
        let headset = ConventionDevice.bluetoothHeadset("bt_flappy", "Flappy Headset")
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.earpiece)]) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(distractor)
            // Control: the server alone would leave audio on the HDMI-like sink.
            try await rig.expectServerDefault(distractor, "before the manager starts")
            let call = try await rig.play(on: distractor, role: "phone")
            defer { call.stop() }
            try await rig.start(expecting: earpiece, streams: [call])

            let mark = await rig.recorder.count
            var deviceChanges = 0
            for _ in 0..<Self.cycles {
                try await rig.loadQuickly(headset)
                try await rig.unloadQuickly(headset)
                deviceChanges += 2
            }
            var expected = earpiece
            if endsPlugged {
                let module = try await rig.loadQuickly(headset)
                deviceChanges += 1
                // PulseAudio unloads a module after answering, so a sink loaded right after may
                // find its name still taken and be called `bt_flappy.2`: the headset is the sink
                // of the last module, whatever its name.
                try await waitUntil("the last headset's sink listed", observer: rig.observer) {
                    try await rig.observer.sinks().contains { $0.ownerModule == module }
                }
                let sink = try #require(try await rig.observer.sinks().first { $0.ownerModule == module })
                expected = ConventionDevice(name: sink.name, properties: headset.properties)
            }

            let isHeadset: @Sendable (String) -> Bool = { $0.hasPrefix(headset.name) }
            try await rig.settle("the route on \(expected) after the storm", timeout: .seconds(20)) { [expected] in
                guard try await rig.defaultSink() == expected.name,
                      rig.manager.selectedAudioDevice?.id == expected.id,
                      try await rig.sinkName(of: call) == expected.name,
                      // The last route the manager announced, if it moved at all.
                      await rig.recorder.routeChanges().last?.to?.id == expected.id else { return false }
                // The server and the manager are done with the storm: only the last headset is
                // left (if any), and the manager's devices are the server's.
                let serverHeadsets = try await rig.observer.sinks().map(\.name).filter(isHeadset)
                let managerHeadsets = try await rig.manager.allDevices.map(\.id.rawValue).filter(isHeadset)
                let left = endsPlugged ? [expected.name] : []
                return serverHeadsets == left && managerHeadsets == left
            }
            try await rig.expectRoute(on: expected, streams: [call], "after the storm")

            let changes = await rig.recorder.routeChanges(after: mark)
            #expect(changes.count <= deviceChanges, "\(changes.count) route changes for \(deviceChanges) device changes")
            if endsPlugged {
                #expect(changes.last?.to?.id == expected.id, "the last route change goes to \(expected): \(changes.suffix(3))")
            }
            // No device the policy never picks by kind was ever reported as the route.
            #expect(!changes.contains { $0.to?.id == distractor.id }, "\(changes.filter { $0.to?.id == distractor.id })")
        }
    }
}
