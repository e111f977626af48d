@testable import AudioContext
import Foundation
import Glibc
import TestSupport
import Testing

/// The evdev backend on synthetic `input_event` records: the parser, the reader over a pipe
/// and a file, and finding devices; there is no /dev/input on the test machine.
@Suite("evdev: records, reader, devices")
struct EvdevTests {
    static let up = InputEvent(seconds: 1_700_000_000, microseconds: 250_000, type: InputEvent.key, code: InputEvent.keyVolumeUp, value: 1)
    static let upRelease = InputEvent(seconds: 1_700_000_000, microseconds: 300_000, type: InputEvent.key, code: InputEvent.keyVolumeUp, value: 0)
    static let downRepeat = InputEvent(type: InputEvent.key, code: InputEvent.keyVolumeDown, value: 2)
    static let mute = InputEvent(type: InputEvent.key, code: InputEvent.keyMute, value: 1)
    static let report = InputEvent(type: InputEvent.synchronization, code: 0, value: 0)
    /// `EV_MSC MSC_SCAN`, which keyboards send before a key.
    static let scan = InputEvent(type: 0x04, code: 0x04, value: 0x7_0080)
    /// `KEY_A`: a key, but not a volume key.
    static let letter = InputEvent(type: InputEvent.key, code: 30, value: 1)

    static let sequence = [scan, up, report, letter, report, upRelease, report, downRepeat, report, mute, report]

    @Test("a record is 24 bytes: time, type, code, value")
    func layout() {
        let bytes = Self.up.bytes
        #expect(bytes.count == 24)
        #expect(bytes[16] == 1 && bytes[17] == 0, "EV_KEY, little-endian")
        #expect(bytes[18] == 115 && bytes[19] == 0, "KEY_VOLUMEUP")
        #expect(bytes[20] == 1)
        var parser = InputEventParser()
        #expect(parser.feed(bytes) == [Self.up])
    }

    @Test("records split across reads at every byte are put back together")
    func splitRecords() {
        let bytes = Self.sequence.flatMap(\.bytes)
        for chunk in [1, 5, 7, 23, 25, 47, 100] {
            var parser = InputEventParser()
            var events: [InputEvent] = []
            var offset = 0
            while offset < bytes.count {
                events += parser.feed(bytes[offset..<min(offset + chunk, bytes.count)])
                offset += chunk
            }
            #expect(events == Self.sequence, "chunks of \(chunk)")
            #expect(parser.pendingByteCount == 0)
        }
    }

    @Test("only volume keys become key events: press, repeat, release")
    func volumeKeys() {
        let keys = Self.sequence.compactMap(VolumeKeyEvent.init)
        #expect(keys == [VolumeKeyEvent(button: .up, action: .press), VolumeKeyEvent(button: .up, action: .release),
                         VolumeKeyEvent(button: .down, action: .repeat), VolumeKeyEvent(button: .mute, action: .press)])
        #expect(keys.map(\.isPress) == [true, false, true, true])
        #expect(VolumeKeyEvent(InputEvent(type: InputEvent.key, code: InputEvent.keyVolumeUp, value: 7)) == nil)
    }

    @Test("the reader on a pipe: records written in pieces, then the writer closes", .timeLimit(.minutes(1)))
    func readerOnPipe() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let keys = EvdevReader.volumeKeys(from: readEnd)
        let bytes = Self.sequence.flatMap(\.bytes)
        // Written after the reader sleeps in poll: odd pieces, so records straddle reads.
        var iterator = keys.makeAsyncIterator()
        var offset = 0
        for piece in [10, 30, 3, 60, 200] where offset < bytes.count {
            let end = min(offset + piece, bytes.count)
            let written = bytes[offset..<end].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            #expect(written == end - offset)
            offset = end
        }
        _ = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        var seen: [VolumeKeyEvent] = []
        while let key = try await iterator.next() { seen.append(key) }
        #expect(seen.map(\.description) == ["up press", "up release", "down repeat", "mute press"])
    }

    @Test("a short read at the end is reported, after the whole records before it", .timeLimit(.minutes(1)))
    func truncatedAtEnd() async throws {
        try await withTemporaryDirectory("evdev") { directory in
            let path = directory.appendingPathComponent("events").path
            let bytes = [Self.up, Self.report].flatMap(\.bytes) + Self.mute.bytes.prefix(10)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            #expect(descriptor >= 0)
            var events: [InputEvent] = []
            do {
                for try await event in EvdevReader.events(from: descriptor) { events.append(event) }
                Issue.record("the stream ended without an error")
            } catch let failure as EvdevReader.Failure {
                #expect(failure == .truncatedRecord(byteCount: 10))
            }
            #expect(events == [Self.up, Self.report])
        }
    }

    @Test("a consumer that stops ends the reader while the writer stays open", .timeLimit(.minutes(1)))
    func consumerStops() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        _ = Self.up.bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        #expect(try await Self.firstEvent(from: ends[0]) == Self.up)
        // Once woken, the reader's thread ends and the read end is closed: the write end
        // then reports POLLERR (asked for no event, poll waits for that alone, 10 s at most).
        var descriptor = pollfd(fd: ends[1], events: 0, revents: 0)
        #expect(poll(&descriptor, 1, 10_000) == 1)
        #expect(descriptor.revents & Int16(POLLERR) != 0)
    }

    /// The first record read from `descriptor`; the stream is released on return, which
    /// ends it.
    static func firstEvent(from descriptor: Int32) async throws -> InputEvent? {
        for try await event in EvdevReader.events(from: descriptor) { return event }
        return nil
    }

    static let devicesText = """
        I: Bus=0019 Vendor=0000 Product=0001 Version=0000
        N: Name="Power Button"
        P: Phys=LNXPWRBN/button/input0
        S: Sysfs=/devices/LNXSYSTM:00/LNXPWRBN:00/input/input0
        U: Uniq=
        H: Handlers=kbd event0
        B: PROP=0
        B: EV=3
        B: KEY=10000000000000 0

        I: Bus=0011 Vendor=0001 Product=0001 Version=ab41
        N: Name="AT Translated Set 2 keyboard"
        P: Phys=isa0060/serio0/input0
        H: Handlers=sysrq kbd leds event3
        B: PROP=0
        B: EV=120013
        B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe

        I: Bus=0003 Vendor=046d Product=c52b Version=0111
        N: Name="Logitech USB Receiver Consumer Control"
        H: Handlers=kbd event7
        B: EV=1f
        B: KEY=300ff 0 e000000000000 0

        I: Bus=0003 Vendor=046d Product=c077 Version=0111
        N: Name="Logitech USB Optical Mouse"
        H: Handlers=mouse0 event4
        B: EV=17
        B: KEY=70000 0 0 0 0
        """

    @Test("/proc/bus/input/devices: devices whose KEY bitmap has 113, 114 or 115")
    func deviceList() {
        let devices = InputDevice.parse(Self.devicesText)
        #expect(devices.map(\.name) == ["Power Button", "AT Translated Set 2 keyboard",
                                        "Logitech USB Receiver Consumer Control", "Logitech USB Optical Mouse"])
        #expect(devices[0].keys == [116], "KEY_POWER only")
        #expect(devices[1].keys.isSuperset(of: [113, 114, 115]))
        #expect(devices[2].keys.isSuperset(of: [113, 114, 115]), "word 1 (bits 64-127) is e000000000000: 113, 114, 115")
        #expect(devices.filter(\.hasVolumeKeys).compactMap(\.devicePath) == ["/dev/input/event3", "/dev/input/event7"])
        #expect(devices[3].hasVolumeKeys == false)
    }

    @Test("unavailable, with the reason, when no device is readable")
    func unavailable() async throws {
        try await withTemporaryDirectory("evdev") { directory in
            let empty = directory.appendingPathComponent("empty").path
            try Data().write(to: URL(fileURLWithPath: empty))
            #expect(EvdevAvailability.check(devicesFile: empty) == .unavailable("no input device with volume keys in \(empty)"))
            let listed = directory.appendingPathComponent("listed").path
            try Self.devicesText.write(toFile: listed, atomically: true, encoding: .utf8)
            // Listed, but this machine has no /dev/input: each node named with its error.
            let availability = EvdevAvailability.check(devicesFile: listed)
            guard case .unavailable(let reason) = availability else {
                Issue.record("expected unavailable, got \(availability)")
                return
            }
            #expect(reason.contains("/dev/input/event3") && reason.contains("/dev/input/event7"), "\(reason)")
            #expect(EvdevAvailability.check(devicesFile: directory.appendingPathComponent("missing").path).description
                    .hasPrefix("unavailable: "))
        }
    }
}
