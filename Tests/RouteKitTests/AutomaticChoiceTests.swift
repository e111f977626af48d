import PulseAudio
@testable import RouteKit
import Testing

/// ``AutomaticChoice`` and ``RoutePolicy``'s use of it, without a machine.
struct AutomaticChoiceTests {
    let speaker = MachineDevices.speaker()
    let headset = MachineDevices.bluetoothHeadset()
    let other = MachineDevices.bluetoothHeadset("00_11_22_33_44_55")

    @Test func aMatchNamesADeviceOrEveryDeviceOfACard() {
        #expect(DeviceMatch(headset.id.rawValue).matches(headset))
        #expect(DeviceMatch("bluez_card.00_1B_66_AA_BB_CC").matches(headset))
        #expect(!DeviceMatch("bluez_card.00_1B_66_AA_BB_CC").matches(other))
        #expect(!DeviceMatch("bluez_card.00_1B").matches(headset), "a prefix is not a card")
    }

    @Test func theDefaultsRestrictNothing() {
        let choice = AutomaticChoice()
        #expect([speaker, headset, other].allSatisfy(choice.mayChooseByKind))
        #expect(choice.holdOff == .zero)
    }

    @Test func neverWinsOverOnly() {
        let choice = AutomaticChoice(never: [DeviceMatch(headset.id.rawValue)], only: [DeviceMatch(headset.card ?? "")])
        #expect(!choice.mayChooseByKind(headset))
        #expect(!choice.mayChooseByKind(other))
    }

    @Test func theTiersLeaveOutWhatAKindMayNotChooseButKeepExactEntries() {
        let choice = AutomaticChoice(never: [DeviceMatch(other.card ?? "")])
        let tiers = RoutePolicy.tiers(among: [speaker, headset, other], preferences: [.kind(.bluetooth), .device(other.id)],
                                      selection: nil, automatic: choice)
        #expect(tiers.map { $0.map(\.id) } == [[headset.id], [other.id]])
    }

    @Test func aHoldOffRecordReleasesDevicesInOrder() {
        var record = ArrivalHoldOff()
        let start = ContinuousClock.now
        record.arrived([headset.id], at: start, holdOff: .seconds(2))
        record.arrived([other.id], at: start + .seconds(1), holdOff: .seconds(2))
        #expect(record.nextRelease(holdOff: .seconds(2)) == start + .seconds(2))
        #expect(record.isHeld(headset.id, now: start + .seconds(1), holdOff: .seconds(2)))
        #expect(record.release(now: start + .seconds(2), holdOff: .seconds(2)) == [headset.id])
        #expect(record.release(now: start + .seconds(2), holdOff: .seconds(2)).isEmpty)
        record.keep(only: [])
        #expect(record.nextRelease(holdOff: .seconds(2)) == nil)
    }

    @Test func noHoldOffRecordsNothing() {
        var record = ArrivalHoldOff()
        record.arrived([headset.id], at: .now, holdOff: .zero)
        #expect(record.arrivals.isEmpty)
    }
}
