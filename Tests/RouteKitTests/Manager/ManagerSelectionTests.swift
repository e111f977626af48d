import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// A device chosen by hand (`select(_:)`, `routectl use`) on real servers: it sticks while
/// its device is present, even against a preferred device that appears, and is dropped when
/// its device goes, after which the preferences apply again.
@Suite("AudioDeviceManager on real servers: manual selection")
struct ManagerSelectionTests {
    @Test("a manual selection sticks while present, is dropped when its device goes, then the preferences apply",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.allCases)
    func stickyWhilePresent(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone()
        let usb = ConventionDevice.wiredHeadset("usb_headset")
        let headset = ConventionDevice.bluetoothHeadset("bt_headset")
        try await LiveManagerRig.run(kind, preferences: [.kind(.bluetooth), .kind(.speakerphone)]) { rig in
            try await rig.plug(speaker)
            try await rig.plug(usb)
            let stream = try await rig.play(on: speaker)
            defer { stream.stop() }
            // The wired headset is in no preference: the speaker has the route.
            try await rig.start(expecting: speaker, streams: [stream])

            var mark = await rig.recorder.count
            try await rig.manager.select(usb.id)
            #expect(rig.manager.manualSelection == usb.id)
            #expect(try await rig.recorder.waitForRoute(to: usb.id, after: mark).reason == .selectionChanged)
            try await rig.expectRoute(on: usb, streams: [stream], "after selecting the wired headset")

            // The preferred Bluetooth headset appears: the selection stands.
            mark = await rig.recorder.count
            try await rig.plug(headset)
            try await rig.waitForManagerDevices(after: mark, containing: headset.id)
            try await rig.expectNoRouteChange(after: mark, "a preferred device appeared beside the selection")
            try await rig.expectRoute(on: usb, streams: [stream], "with the preferred headset present")
            #expect(rig.manager.manualSelection == usb.id)

            // The selected device goes: the selection is dropped and the preferences apply.
            mark = await rig.recorder.count
            try await rig.unplug(usb)
            #expect(try await rig.recorder.waitForRoute(to: headset.id, after: mark).reason == .deviceFailed)
            try await rig.expectRoute(on: headset, streams: [stream], "after the selected device went")
            #expect(rig.manager.manualSelection == nil)

            // It comes back: no longer selected, so it does not take the route back.
            mark = await rig.recorder.count
            try await rig.plug(usb)
            try await rig.waitForManagerDevices(after: mark, containing: usb.id)
            try await rig.expectNoRouteChange(after: mark, "the formerly selected device came back")
            try await rig.expectRoute(on: headset, streams: [stream], "after the formerly selected device came back")
        }
    }

    @Test("clearing a selection gives the route back to the preferences", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func clearingSelection(kind: SoundServerKind) async throws {
        let speaker = ConventionDevice.speakerphone()
        let earpiece = ConventionDevice.earpiece()
        try await LiveManagerRig.run(kind, preferences: [.kind(.earpiece)]) { rig in
            try await rig.plug(speaker)
            try await rig.plug(earpiece)
            try await rig.start(expecting: earpiece)

            var mark = await rig.recorder.count
            try await rig.manager.select(speaker.id)
            #expect(try await rig.recorder.waitForRoute(to: speaker.id, after: mark).reason == .selectionChanged)
            try await rig.expectRoute(on: speaker, "with the speaker selected")

            mark = await rig.recorder.count
            try await rig.manager.select(nil)
            #expect(try await rig.recorder.waitForRoute(to: earpiece.id, after: mark).reason == .selectionChanged)
            try await rig.expectRoute(on: earpiece, "after clearing the selection")
        }
    }

    @Test("selecting a device that is not there throws noSuchDevice and changes nothing", .timeLimit(.minutes(1)),
          arguments: SoundServerKind.allCases)
    func absentDevice(kind: SoundServerKind) async throws {
        let earpiece = ConventionDevice.earpiece()
        let gone = ConventionDevice.bluetoothHeadset("bt_gone")
        try await LiveManagerRig.run(kind, preferences: [.kind(.earpiece)]) { rig in
            try await rig.plug(earpiece)
            try await rig.plug(gone)
            try await rig.start(expecting: earpiece)
            try await rig.unplug(gone)
            try await rig.waitForManagerDevices(after: 0, containing: gone.id, present: false)

            let mark = await rig.recorder.count
            await #expect(throws: SelectionError.noSuchDevice(gone.id)) {
                try await rig.manager.select(gone.id)
            }
            await #expect(throws: SelectionError.noSuchDevice("never_was")) {
                try await rig.manager.select("never_was")
            }
            #expect(rig.manager.manualSelection == nil)
            try await rig.expectNoRouteChange(after: mark, "a refused selection")
            try await rig.expectRoute(on: earpiece, "after the refused selections")
        }
    }
}
