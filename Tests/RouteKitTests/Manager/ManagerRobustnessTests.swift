import PulseAudio
import RouteKit
import SoundServerSandbox
import Synchronization
import TestSupport
import Testing

/// What goes wrong around the manager, not in it: late subscribers, servers that die or
/// freeze, callers that give up, and many callers at once. Each on both real servers.
@Suite("AudioDeviceManager on real servers: restarts, cancellation, concurrency")
struct ManagerRobustnessTests {
    static let speaker = ConventionDevice.speakerphone()
    static let headset = ConventionDevice.bluetoothHeadset("bt_headset")

    @Test("a subscriber that arrives after start learns the state first", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func lateSubscriberGetsState(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            var late = rig.manager.events().makeAsyncIterator()
            guard case .state(let state)? = await late.next() else {
                Issue.record("the first event is not the state")
                return
            }
            #expect(state.route?.id == Self.headset.id)
            #expect(state.isConnected)
            #expect(!state.isCallAudioActive)
            #expect(Set(state.devices.map(\.id)).isSuperset(of: [Self.speaker.id, Self.headset.id]))
            #expect(rig.manager.state.route?.id == Self.headset.id, "the same state, read at once")
        }
    }

    @Test("the server killed and restarted 20 times, some mid-switch: the preference is back within 1 s each time",
          .timeLimit(.minutes(3)), arguments: SoundServerKind.allCases)
    func serverRestarts(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            for round in 1...20 {
                let midSwitch = round.isMultiple(of: 3)
                if midSwitch {
                    // A switch under way when the server dies: freeze the server, ask for the
                    // speaker (the manager sends its requests, which stay unanswered), then kill.
                    try rig.server.freeze()
                    let asking = Task { await rig.manager.setPreferences([.kind(.speakerphone), .kind(.bluetooth)]) }
                    try await rig.server.crash()
                    await asking.value
                } else {
                    try await rig.server.crash()
                }
                try await rig.server.restart()
                try await rig.observer.connect()
                let expected = midSwitch ? Self.speaker : Self.headset
                rig.forgetModules()
                // The restarted server has none of the old devices: plug them again, and time
                // from the last plug to the route on the preferred one.
                try await rig.plug(midSwitch ? Self.headset : Self.speaker)
                let plugged = ContinuousClock.now
                try await rig.plug(expected)
                try await rig.settle("round \(round): the route on \(expected)") {
                    try await rig.defaultSink() == expected.name && rig.manager.selectedAudioDevice?.id == expected.id
                }
                let took = ContinuousClock.now - plugged
                #expect(took < .seconds(1), "round \(round): \(took) to re-apply the preference")
                if midSwitch { await rig.manager.setPreferences([.kind(.bluetooth), .kind(.speakerphone)]) }
                try await rig.expectRoute(on: Self.headset, "after round \(round)")
            }
            #expect(rig.manager.state.isConnected)
        }
    }

    @Test("stop() with the server frozen mid-switch returns within its bound", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func stopWhileFrozen(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.headset)
            try rig.server.freeze()
            defer { try? rig.server.thaw() }
            let asking = Task { await rig.manager.setPreferences([.kind(.speakerphone)]) }
            let started = ContinuousClock.now
            await rig.manager.stop()
            let took = ContinuousClock.now - started
            #expect(took < .seconds(6), "stop took \(took) with the server frozen")
            #expect(!rig.manager.isRunning)
            await asking.value
        }
    }

    @Test("a caller cancelled mid-call: the call still takes effect and no device is set aside",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func cancelledCaller(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            try await rig.start(expecting: Self.speaker)
            let mark = await rig.recorder.count
            let caller = Task { await rig.manager.setPreferences([.kind(.bluetooth), .kind(.speakerphone)]) }
            caller.cancel()
            await caller.value
            try await rig.recorder.waitForRoute(to: Self.headset.id, after: mark)
            #expect(await rig.recorder.switchFailures(after: mark).isEmpty, "a cancelled caller is no device failure")
            try await rig.expectRoute(on: Self.headset, "after the cancelled call")
        }
    }

    @Test("100 tasks calling start, stop and preferences at once end consistent", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func concurrentLifecycle(kind: SoundServerKind) async throws {
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(Self.headset)
            let manager = rig.manager
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<100 {
                    group.addTask {
                        switch task % 4 {
                        case 0: try? await manager.start()
                        case 1: await manager.stop()
                        case 2: await manager.setAudioDevice(.kind(.bluetooth))
                        default: await manager.setDefaultAudio(.kind(.speakerphone))
                        }
                    }
                }
            }
            #expect(manager.preferences == [.kind(.bluetooth), .kind(.speakerphone)])
            // Whatever the interleaving, a last start runs the manager and routes by the preferences.
            try await manager.start()
            #expect(manager.isRunning)
            try await rig.expectRoute(on: Self.headset, "after the storm of calls")
            await manager.stop()
            #expect(!manager.isRunning)
            #expect(manager.selectedAudioDevice == nil)
        }
    }
}
