import PulseAudio
import Testing
import TestSupport
@testable import RouteKit

/// ``DeviceListDiff`` pairs each device of a new list with the same device of the old one,
/// walking both in order where it can and by id where it cannot.
@Suite("Device list diff: the same device found in the list before")
struct DeviceListDiffTests {
    private func devices(_ names: [String]) -> [AudioDevice] {
        names.map { MachineDevices.virtualSink($0) }
    }

    /// The diff as names: for each new device, the old device's name or nil; then the gone ones.
    private func diff(_ old: [String], _ new: [String]) -> (previous: [String?], gone: [String]) {
        let result = DeviceListDiff(from: devices(old), to: devices(new))
        return (result.previous.map { $0.map { old[$0] } }, result.gone.map { old[$0] }.sorted())
    }

    @Test("the same list: each device is the one at its place, none gone")
    func same() {
        let result = diff(["a", "b", "c"], ["a", "b", "c"])
        #expect(result.previous == ["a", "b", "c"])
        #expect(result.gone.isEmpty)
    }

    @Test("a device added at the end or in the middle has no previous; the others keep theirs")
    func added() {
        #expect(diff(["a", "b"], ["a", "b", "new"]).previous == ["a", "b", nil])
        #expect(diff(["a", "b"], ["a", "new", "b"]).previous == ["a", nil, "b"])
        #expect(diff([], ["new"]).previous == [nil])
    }

    @Test("devices removed anywhere are gone; the rest are found past them")
    func removed() {
        let middle = diff(["a", "b", "c", "d"], ["a", "d"])
        #expect(middle.previous == ["a", "d"])
        #expect(middle.gone == ["b", "c"])
        #expect(diff(["a", "b"], []).gone == ["a", "b"])
        #expect(diff(["a", "b", "c"], ["b", "c"]).gone == ["a"])
    }

    @Test("further than the walk looks, or in another order: found by id")
    func reorderedAndFar() {
        let far = ["a", "b", "c", "d", "e", "f", "g", "h"]
        let result = diff(far, ["h", "new", "a", "g"])
        #expect(result.previous == ["h", nil, "a", "g"])
        #expect(result.gone == ["b", "c", "d", "e", "f"])
        let reversed = diff(["a", "b", "c"], ["c", "b", "a"])
        #expect(reversed.previous == ["c", "b", "a"])
        #expect(reversed.gone.isEmpty)
    }

    @Test("added, removed and moved at once, on a long list: every pairing as by id")
    func agreesWithIDs() {
        var generator = SplitMix64(seed: 19)
        for _ in 0..<200 {
            let old = (0..<Int.random(in: 0...30, using: &generator)).map { "d\($0)" }
            var new = old.filter { _ in Int.random(in: 0..<4, using: &generator) != 0 }
            for index in 0..<Int.random(in: 0...3, using: &generator) {
                new.insert("new\(index)", at: Int.random(in: 0...new.count, using: &generator))
            }
            if new.count > 1, Bool.random(using: &generator) { new.swapAt(0, new.count - 1) }
            let result = diff(old, new)
            #expect(result.previous == new.map { old.contains($0) ? $0 : nil })
            #expect(result.gone == old.filter { !new.contains($0) }.sorted())
        }
    }
}
