import DBus
import RouteKit
import RouteKitDBus
import Testing

/// RouteKitLimits' bounds on what one call may carry, decoded without a bus: each refused with
/// `LimitExceeded` naming the limit, and the largest that fits taken.
@Suite("RouteKit1 limits")
struct RouteKitLimitsTests {
    func decode(_ member: String, _ arguments: [BusValue]) throws(BusError) -> RouteKitRequest {
        try RouteKitRequest.decode(member: member, arguments: arguments, devices: Devices.all)
    }

    @Test("more than 64 preferences, or an entry over 256 bytes, is LimitExceeded naming the limit")
    func preferences() throws {
        let many = #expect(throws: BusError.self) {
            try decode("SetPreferences", [.strings(Array(repeating: "bluetooth", count: RouteKitLimits.maximumPreferences + 1))])
        }
        #expect(many?.name == RouteKitInterface.ErrorName.limitExceeded)
        #expect(many?.message == "65 preferences given: at most 64 preferences")
        let long = #expect(throws: BusError.self) {
            try decode("SetPreferences", [.strings(["bluetooth", String(repeating: "d", count: 257)])])
        }
        #expect(long?.message == "a preference entry has 257 bytes: at most 256 bytes")
        let most = Array(repeating: "bluetooth", count: RouteKitLimits.maximumPreferences)
        #expect(try decode("SetPreferences", [.strings(most)]) == .setPreferences(Array(repeating: .kind(.bluetooth), count: 64)))
    }

    @Test("a device name over 256 bytes and a call id over 128 characters are LimitExceeded")
    func names() throws {
        let long = #expect(throws: BusError.self) { try decode("Use", [.string(String(repeating: "é", count: 129))]) }
        #expect(long?.name == RouteKitInterface.ErrorName.limitExceeded)
        #expect(long?.message == "the device or kind has 258 bytes: at most 256 bytes")
        let id = #expect(throws: BusError.self) {
            try decode("OpenCall", [.string(String(repeating: "c", count: 129)), .string("active")])
        }
        #expect(id?.name == RouteKitInterface.ErrorName.limitExceeded)
        #expect(id?.message == "a call id has at most 128 characters")
        #expect(try decode("CloseCall", [.string(String(repeating: "c", count: 128))]) == .closeCall(id: String(repeating: "c", count: 128)))
    }
}
