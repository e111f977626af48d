import DBus
import Testing

/// Every D-Bus type the wrapper takes, written by one connection, read by another, and back.
@Suite("D-Bus values through a real bus")
struct ValueTests {
    static let samples: [BusValue] = [
        .byte(200), .boolean(true), .boolean(false), .int16(-3), .uint16(65_000), .int32(-70_000), .uint32(4_000_000_000),
        .int64(-9_000_000_000), .uint64(18_000_000_000_000_000_000), .double(0.25),
        .string(""), .string("héllo \u{1F3A7}"), .objectPath("/io/github/routekit"), .signature("a{sv}"),
        .strings(["bluetooth", "speakerphone"]), .array(element: .int32, []),
        .variantDictionary([("Route", .string("bt_headset")), ("CallAudio", .boolean(true)), ("Count", .uint32(2))]),
        .structure([.string("id"), .uint32(7), .strings([])]),
        .array(element: .structure([.string, .boolean]), [.structure([.string("a"), .boolean(true)])]),
        .dictionary(key: .uint32, value: .array(.string), [BusDictionaryEntry(key: .uint32(1), value: .strings(["x"]))]),
        .variant(.variant(.string("nested"))),
    ]

    @Test("each value comes back as it was sent")
    func roundTrip() async throws {
        try await withPeers { _, _, client, _ in
            for sample in Self.samples {
                let answer = try await client.call(EchoInterface.call("Echo", [.variant(sample)]))
                #expect(answer == [.variant(sample)], "\(sample)")
            }
        }
    }

    @Test("several arguments and a computed answer")
    func arguments() async throws {
        try await withPeers { _, _, client, _ in
            let answer = try await client.call(EchoInterface.call("Concat", [.string("ab"), .uint32(3)]))
            #expect(answer == [.string("ababab")])
        }
    }

    @Test("signatures are written as D-Bus writes them")
    func signatures() {
        #expect(BusValue.variantDictionary([]).signature == "a{sv}")
        #expect(BusValue.structure([.string("a"), .uint32(1), .strings([])]).signature == "(suas)")
        #expect(BusMethod("Concat", arguments: [BusArgument("a", .string), BusArgument("b", .uint32)]).argumentSignature == "su")
        #expect(BusValue.array(element: .dictionary(key: .string, value: .variant), []).signature == "aa{sv}")
    }
}
