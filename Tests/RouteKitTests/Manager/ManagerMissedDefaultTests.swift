import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// A switch whose confirmation the manager's own connection never receives: PipeWire passes a
/// change of WirePlumber's "default" metadata only to the client binding it while any bind
/// waits for WirePlumber's answer, and pipewire-pulse binds it for every client that connects
/// (Docs/Reliability.md, "The PipeWire default that never reaches long-lived connections").
/// The manager renews its connection when the confirmation is overdue and judges the switch
/// on what the new one reads.
///
/// The miss is provoked by switching while newcomers keep connecting (``NewcomerStorm``);
/// switches are tried until one is missed (its confirmation then comes only with the
/// recheck, on a renewed connection: the server lists a new client for the manager). Another
/// client's change that is missed is read by the engine's own check once the newcomers are
/// gone (``MissedDefaultCheckTests`` for the rules, on the simulated server).
@Suite("AudioDeviceManager on PipeWire: a confirmation its connection missed")
struct ManagerMissedDefaultTests {
    @Test("the switch counts once a renewed connection reads it: no failure, no move back", .timeLimit(.minutes(2)))
    func missedConfirmation() async throws {
        let earpiece = ConventionDevice.earpiece()
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        try await LiveManagerRig.run(.pipewire, preferences: [.kind(.earpiece)]) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(headset)
            try await rig.start(expecting: earpiece)

            var device = earpiece
            var renewed = false
            var attempts = 0
            while !renewed, attempts < 60 {
                attempts += 1
                let next = device.name == earpiece.name ? headset : earpiece
                let managerClient = try await Self.managerClientIndex(rig.server)
                let mark = await rig.recorder.count
                let asked = ContinuousClock.now
                try await NewcomerStorm.during(rig.server) {
                    await rig.manager.setPreferences([.device(next.id)])
                }
                let change = try await rig.recorder.waitForRoute(to: next.id, after: mark)
                let confirmedAfter = ContinuousClock.now - asked
                #expect(change.reason == .preferencesChanged)
                let failures = await rig.recorder.switchFailures(after: mark)
                #expect(failures.isEmpty, "the switch did happen: \(failures)")
                #expect(try await Self.defaultSinkAfresh(rig.server) == next.name)
                // Missed: confirmed no sooner than the recheck, on a renewed connection.
                renewed = try await Self.managerClientIndex(rig.server) != managerClient
                    && confirmedAfter >= .milliseconds(450)
                device = next
            }
            #expect(renewed, "no confirmation was missed in \(attempts) switches")
            // The observer's connection may have missed it too; renewed, it agrees, and nothing
            // moved back.
            try await rig.observer.renewConnection()
            try await rig.expectRoute(on: device, "after the renewal")
        }
    }

    @Test("another client's change the connection missed is read on a new connection once clients stop coming and going",
          .timeLimit(.minutes(3)))
    func missedChangeReadAfterClientsLeft() async throws {
        let speaker = ConventionDevice.speakerphone("builtin")
        let hdmi = ConventionDevice.hdmi()
        // No Bluetooth device: the manager leaves the server's choice alone and reports it, so
        // that another client's changes cost no switch back.
        try await LiveManagerRig.run(.pipewire, preferences: [.kind(.bluetooth)]) { rig in
            try await rig.plug(speaker)
            try await rig.plug(hdmi)
            try await rig.start(expecting: nil)
            // The premise of each round: the manager reports what the server shows. Its start
            // is reported after start() returns (once seen after the first round's mark, and
            // taken for the round's change), and WirePlumber may still settle its own pick.
            let manager = rig.manager
            try await rig.settle("the manager reporting the server's own pick") {
                let sink = try await Self.defaultSinkAfresh(rig.server)
                return sink != nil && manager.selectedAudioDevice?.output?.deviceName == sink
            }
            var healed = false
            var attempts = 0
            while !healed, attempts < 60 {
                attempts += 1
                // The mark comes first: WirePlumber may still settle its own choice between
                // the two sinks after the start (a transient default read at start, then its
                // pick), and the manager's report of it must count after the mark whichever
                // sink this reads. A sink the server already moved to is reported all the same.
                let mark = await rig.recorder.count
                let next = try await Self.defaultSinkAfresh(rig.server) == speaker.name ? hdmi : speaker
                let managerClient = try await Self.managerClientIndex(rig.server)
                try await NewcomerStorm.during(rig.server) {
                    _ = try await rig.server.pactl("set-default-sink", next.name)
                }
                // Heard or missed, the manager reports it: a miss once the newcomers are gone
                // (at most a second after the first of them) and a new connection has read it.
                let change = try await rig.recorder.waitForRoute(to: next.id, after: mark)
                #expect(change.reason == .changedElsewhere, "\(change)")
                #expect(await rig.recorder.switchFailures(after: mark).isEmpty)
                // Missed: the manager renewed its connection to read it (nothing of its own was
                // under way), so the server lists a new client for it.
                healed = try await Self.managerClientIndex(rig.server) != managerClient
            }
            #expect(healed, "no change was missed in \(attempts) tries")
        }
    }

    /// The default sink as a client connecting now reads it.
    static func defaultSinkAfresh(_ server: SandboxServer) async throws -> String? {
        try await PulseClient.withConnection(Self.newcomer(server)) { try await $0.serverInfo().defaultSinkName }
    }

    /// The index of the manager's client on the server, as a client connecting now lists it.
    static func managerClientIndex(_ server: SandboxServer) async throws -> UInt32? {
        try await PulseClient.withConnection(Self.newcomer(server)) { client in
            try await client.clients().first { $0.name == "routekit-manager" }?.index
        }
    }

    private static func newcomer(_ server: SandboxServer) -> PulseClient.Configuration {
        .init(server: server.serverAddress, applicationName: "routekit-newcomer", reconnectPolicy: .never)
    }
}
