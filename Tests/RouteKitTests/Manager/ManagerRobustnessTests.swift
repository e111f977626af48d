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
                // Timed: the manager's route, confirmed by what its connection reads. The observer
                // checks the server's default after; on PipeWire its connection can miss the
                // change and see it only at its renewal, a second into the wait, which timed the
                // observer's renewal instead of the manager (CI, 29 November: all 20 rounds at
                // 1.006–1.027 s, once pipewire-pulse had been killed during a pending bind of
                // the "default" metadata; Docs/Reliability.md).
                try await rig.settle("round \(round): the manager's route on \(expected)") {
                    rig.manager.selectedAudioDevice?.id == expected.id && rig.manager.state.isConnected
                }
                let took = ContinuousClock.now - plugged
                #expect(took < .seconds(1), "round \(round): \(took) to re-apply the preference")
                try await rig.settle("round \(round): the default on \(expected)") {
                    try await rig.defaultSink() == expected.name && rig.manager.selectedAudioDevice?.id == expected.id
                }
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

/// Storms, rivals and the user's own choices, on both real servers.
@Suite("AudioDeviceManager on real servers: storms, rivals, the user's choices")
struct ManagerStormTests {
    static let speaker = ConventionDevice.speakerphone()

    @Test("1 000 plug and unplug events of several devices at random moments, with a volume storm: the policy's answer, no false failure",
          .timeLimit(.minutes(3)), arguments: SoundServerKind.allCases)
    func randomStorm(kind: SoundServerKind) async throws {
        let headsets = ["bt_one", "bt_two", "bt_three"].map { ConventionDevice.bluetoothHeadset($0) }
        let wired = ConventionDevice.wiredHeadset("usb_headset")
        let devices = headsets + [wired]
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.wiredHeadset), .kind(.speakerphone)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.start(expecting: Self.speaker)
            let mark = await rig.recorder.count
            var random = SplitMix64(seed: 0x5EED_2026)
            var plugged: [String] = []  // in the order they were plugged
            let volumeStorm = Task {
                // A user dragging the speaker's volume slider the whole time.
                var level: UInt32 = 0
                while !Task.isCancelled {
                    level = (level + 1_000) % 65_536
                    try? await rig.observer.setSinkVolume(Self.speaker.name, ChannelVolumes(channelCount: 2, volume: level))
                }
            }
            defer { volumeStorm.cancel() }
            for _ in 0..<1_000 {
                let device = devices[Int(random.next() % UInt64(devices.count))]
                if let position = plugged.firstIndex(of: device.name) {
                    plugged.remove(at: position)
                    try await rig.unloadQuickly(device)
                } else {
                    plugged.append(device.name)
                    try await rig.loadQuickly(device)
                }
                // A random moment: up to a few scheduler turns, or none.
                for _ in 0..<(random.next() % 4) { await Task.yield() }
            }
            volumeStorm.cancel()
            // The policy's answer: the Bluetooth headset plugged last, else the wired one, else the speaker.
            let expected = plugged.last { $0.hasPrefix("bt_") } ?? plugged.first { $0 == wired.name } ?? Self.speaker.name
            let device = devices.first { $0.name == expected } ?? Self.speaker
            try await rig.settle("the route on \(expected) after the storm", timeout: .seconds(30)) {
                try await rig.defaultSink() == expected && rig.manager.selectedAudioDevice?.id.rawValue == expected
            }
            try await rig.expectRoute(on: device, "after the storm")
            // A failure may name only a device that really went away under its switch.
            for failure in await rig.recorder.switchFailures(after: mark) {
                let vanished = failure.reason.message.contains("went away") || failure.reason.code == .noSuchEntity
                #expect(vanished, "a false failure: \(failure.device.id): \(failure.reason)")
            }
        }
    }

    @Test("two managers with opposite preferences: one yields, says so, and the default stops flipping",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func rivalsYield(kind: SoundServerKind) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            let rivalClient = PulseClient(configuration: .init(server: rig.server.serverAddress, applicationName: "rival",
                                                               subscription: .devices))
            defer { rivalClient.shutdown() }
            try await rivalClient.connect()
            let rival = AudioDeviceManager(server: rivalClient, preferences: [.kind(.speakerphone)], logger: LiveManagerRig.quietLogger)
            let rivalEvents = rival.events()
            // Either may yield first, at once; both report it as an event.
            let mark = await rig.recorder.count
            try await rival.start()
            let waitForAYield: @Sendable () async -> Bool = {
                await withTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        for await event in rivalEvents { if case .yielded = event { return true } }
                        return false
                    }
                    group.addTask {
                        (try? await rig.recorder.waitForEvent("our manager yielding", after: mark, timeout: .seconds(20)) {
                            if case .yielded = $0 { true } else { false }
                        }) != nil
                    }
                    let first = await group.next() ?? false
                    group.cancelAll()
                    return first
                }
            }
            // On PipeWire the rival's first default, set while its connection was still being
            // bound, can miss the other manager's connection for good (Docs/Reliability.md): no
            // one would see a rival to yield to. Both connections are renewed once a second
            // while the test waits, and each manager reads the defaults afresh after a renewal.
            let someoneYielded: Bool
            if kind == .pipewire {
                someoneYielded = (try? await whileRenewing(rig.managerClient) {
                    try await whileRenewing(rivalClient) { await waitForAYield() }
                }) ?? false
            } else {
                someoneYielded = await waitForAYield()
            }
            #expect(someoneYielded, "one of the two rivals yields")
            // Then the default stays put: no default change is seen for half a second.
            let settled = try await rig.defaultSink()
            let events = rig.observer.events()
            let flipped = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await event in events {
                        if case .subscription(let change) = event, change.facility == .server { return true }
                    }
                    return false
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(500))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            #expect(!flipped, "the default still flips after a rival yielded (it was \(settled ?? "none"))")
            await rival.stop()
        }
    }

    @Test("ACB's slots: the fallback set first survives the preferred set after it", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func fallbackSetFirst(kind: SoundServerKind) async throws {
        let earpiece = ConventionDevice.earpiece()
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        let hdmi = ConventionDevice.hdmi()
        try await LiveManagerRig.run(kind, preferences: []) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(hdmi)
            await rig.manager.setDefaultAudio(.kind(.earpiece))
            await rig.manager.setAudioDevice(.kind(.bluetooth))
            #expect(rig.manager.preferences == [.kind(.bluetooth), .kind(.earpiece)])
            try await rig.start(expecting: earpiece)
            try await rig.plug(headset)
            try await rig.expectRoute(on: headset, "with the headset plugged")
            let mark = await rig.recorder.count
            try await rig.unplug(headset)
            // The server would pick the HDMI output; the fallback set first wins.
            try await rig.recorder.waitForRoute(to: earpiece.id, after: mark)
            try await rig.expectRoute(on: earpiece, "after the headset went")
        }
    }

    @Test("stop() leaves alone a default the user chose after the manager's device went", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func userDefaultAfterDeviceLeft(kind: SoundServerKind) async throws {
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        let usb = ConventionDevice.wiredHeadset("usb_headset")
        let earpiece = ConventionDevice.earpiece()
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth)]) { rig in
            try await rig.plug(Self.speaker)
            try await rig.plug(usb)
            try await rig.plug(earpiece)
            // The default found at start, which stop() would put back if it were still its to.
            try await rig.observer.setDefaultSink(earpiece.name)
            try await rig.expectServerDefault(earpiece, "as configured")
            try await rig.plug(headset)
            try await rig.start(expecting: headset)
            try await rig.unplug(headset)
            // A sink, not just "not the headset": on PipeWire there is no default for a moment
            // until WirePlumber picks one, and a choice made then would be the one that ends
            // "no default", which is what the server's own fallback does.
            try await rig.settle("the server's own fallback") {
                guard let sink = try await rig.defaultSink(), sink != headset.name else { return false }
                return try await rig.observer.sink(named: sink) != nil
            }
            let fallback = try #require(try await rig.defaultSink())
            // The manager's own connection has delivered the fallback too (the observer's may
            // see it first on a loaded machine): a choice made before would reach the manager
            // in one batch with it, and no one could tell them apart.
            // On PipeWire the fallback, set as the pactl that unplugged the headset was bound,
            // can miss the manager's connection for good (no switch of its own is under way to
            // renew it): the manager's connection is renewed while the test waits.
            let seesFallback: @Sendable () async throws -> Void = {
                try await rig.settle("the manager seeing the server's fallback") {
                    rig.manager.selectedAudioDevice?.output?.deviceName == fallback
                }
            }
            if kind == .pipewire { try await whileRenewing(rig.managerClient, seesFallback) } else { try await seesFallback() }
            // The user chooses, by hand, another device than the server's fallback, with no
            // preference of the manager's left to apply.
            let chosen = [Self.speaker, usb].first { $0.name != fallback } ?? usb
            try await rig.observer.setDefaultSink(chosen.name)
            try await rig.expectServerDefault(chosen, "chosen by the user")
            // The same on PipeWire for the user's choice: the clients that read the server's
            // default bind the "default" metadata as it changes (a fresh-clone CI run on 1.4.2
            // timed out here with the manager still on the fallback).
            let seesChoice: @Sendable () async throws -> Void = {
                try await rig.settle("the manager seeing the user's choice") { rig.manager.selectedAudioDevice?.id == chosen.id }
            }
            if kind == .pipewire { try await whileRenewing(rig.managerClient, seesChoice) } else { try await seesChoice() }
            await rig.manager.stop()
            let after = try await rig.defaultSink()
            let situation = after == chosen.name ? "" : await rig.situation()
            #expect(after == chosen.name, "stop() kept the user's choice (fallback \(fallback)): \(situation)")
        }
    }
}
