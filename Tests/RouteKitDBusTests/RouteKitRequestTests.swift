import DBus
import RouteKit
import RouteKitDBus
import Testing

/// RouteKit1's calls decoded and decided without a bus or a server: what changes, and the
/// errors that change nothing.
@Suite("RouteKit1 requests")
struct RouteKitRequestTests {
    func decode(_ member: String, _ arguments: [BusValue] = []) throws(BusError) -> RouteKitRequest {
        try RouteKitRequest.decode(member: member, arguments: arguments, devices: Devices.all)
    }

    @Test("each method decodes to its request")
    func methods() throws {
        #expect(try decode("Use", [.string("bluetooth")]) == .use("bluetooth"))
        #expect(try decode("ClearSelection") == .clearSelection)
        #expect(try decode("SetPreferences", [.strings(["bluetooth", "speaker"])])
                == .setPreferences([.kind(.bluetooth), .device("speaker")]))
        #expect(try decode("ClearPreferences") == .clearPreferences)
        #expect(try decode("StartCall") == .startCall)
        #expect(try decode("EndCall") == .endCall)
        #expect(try decode("EnableSpeaker", [.boolean(true)]) == .enableSpeaker(true))
        #expect(try decode("MuteMic", [.boolean(false)]) == .muteMicrophone(false))
        #expect(try decode("Refresh") == .refresh)
        #expect(try decode("ListDevices") == .listDevices)
        #expect(try decode("Status") == .status)
    }

    @Test("arguments of the wrong types are InvalidArgs naming the types the method takes")
    func wrongTypes() {
        let error = #expect(throws: BusError.self) { try decode("Use", [.uint32(3)]) }
        #expect(error?.name == BusError.invalidArgumentsName)
        #expect(error?.message == "Use takes 's', not 'u'")
        let missing = #expect(throws: BusError.self) { try decode("MuteMic") }
        #expect(missing?.message == "MuteMic takes 'b', not ''")
        let unknown = #expect(throws: BusError.self) { try decode("Play") }
        #expect(unknown?.name == BusError.unknownMethodName)
    }

    @Test("Use of a kind keeps the route when it is of that kind, else takes the policy's first")
    func useKind() throws {
        let onDesk = Devices.state(route: Devices.deskSpeaker)
        #expect(try RouteKitRequest.use("speakerphone").operation(devices: Devices.all, state: onDesk) == .select("desk_speaker"))
        let onHeadset = Devices.state(route: Devices.headset)
        #expect(try RouteKitRequest.use("speakerphone").operation(devices: Devices.all, state: onHeadset) == .select("desk_speaker"))
        #expect(try RouteKitRequest.use("bluetooth").operation(devices: Devices.all, state: onDesk) == .select("bt_headset"))
    }

    @Test("Use of a device id selects it, HDMI too; an unavailable one is NotUsable")
    func useDevice() throws {
        let state = Devices.state(route: Devices.speaker)
        #expect(try RouteKitRequest.use("hdmi").operation(devices: Devices.all, state: state) == .select("hdmi"))
        let error = #expect(throws: BusError.self) {
            try RouteKitRequest.use("jack").operation(devices: Devices.all, state: state)
        }
        #expect(error?.name == RouteKitInterface.ErrorName.notUsable)
        #expect(error?.message == "\"jack\" is unavailable")
    }

    @Test("an unknown device or kind is UnknownDevice listing the kinds and the usable devices")
    func unknownTargets() {
        let state = Devices.state(route: Devices.speaker)
        let choices = "Kinds: bluetooth, wiredHeadset, speakerphone, earpiece; devices: speaker (speakerphone), "
            + "desk_speaker (speakerphone), bt_headset (bluetooth), hdmi (external)."
        let cases: [(String, String)] = [
            ("nothing", "no device \"nothing\" is present. " + choices),
            ("bluetoth", "no kind \"bluetoth\"; did you mean bluetooth? " + choices),
            ("earpiece", "no earpiece device is present. " + choices),
            ("virtual", "virtual devices are chosen by their id, not by kind. " + choices),
            (" ", "name a device or a kind. " + choices),
        ]
        for (target, message) in cases {
            let error = #expect(throws: BusError.self) {
                try RouteKitRequest.use(target).operation(devices: Devices.all, state: state)
            }
            #expect(error?.name == RouteKitInterface.ErrorName.unknownDevice)
            #expect(error?.message == message)
        }
    }

    @Test("SetPreferences refuses entries that match nothing, naming the kinds; absent device ids are kept")
    func preferences() throws {
        #expect(try PreferenceEntries.parse(["later_device", "wired-headset"], devices: Devices.all)
                == [.device("later_device"), .kind(.wiredHeadset)])
        for (entries, start) in [(["bluetooth", "speakerfone"], "no kind \"speakerfone\"; did you mean speakerphone?"),
                                 (["external"], "external devices are never chosen by kind; name one by its id."),
                                 (["bluetooth", ""], "an entry is empty.")] {
            let error = #expect(throws: BusError.self) { try PreferenceEntries.parse(entries, devices: Devices.all) }
            #expect(error?.name == RouteKitInterface.ErrorName.invalidPreference)
            #expect(error?.message.hasPrefix(start + " Kinds: bluetooth, wiredHeadset, speakerphone, earpiece;") == true,
                    "\(String(describing: error))")
        }
    }

    @Test("client text in an error is escaped: no control or formatting character comes back raw")
    func errorsEscapeClientText() throws {
        let hostile = "bad\u{1B}[31m\u{01}\r\n\u{7F}\u{9B}2J\u{202E}txt"
        let escaped = #"bad\x1b[31m\x01\r\n\x7f\u{009b}2J\u{202e}txt"#
        let state = Devices.state(route: Devices.speaker)
        let unknown = #expect(throws: BusError.self) {
            try RouteKitRequest.use(hostile).operation(devices: Devices.all, state: state)
        }
        #expect(unknown?.name == RouteKitInterface.ErrorName.unknownDevice)
        #expect(unknown?.message.hasPrefix("no device \"\(escaped)\" is present. Kinds: ") == true, "\(String(describing: unknown))")
        let misspelled = #expect(throws: BusError.self) {
            try RouteKitRequest.use("bluetoot\u{202E}").operation(devices: Devices.all, state: state)
        }
        #expect(misspelled?.message.hasPrefix(#"no kind "bluetoot\u{202e}"; did you mean bluetooth?"#) == true,
                "\(String(describing: misspelled))")
        let callState = #expect(throws: BusError.self) { try decode("OpenCall", [.string(""), .string(hostile)]) }
        #expect(callState?.name == BusError.invalidArgumentsName)
        #expect(callState?.message == "\"\(escaped)\" is not a call state: ringing, active or held")
        for error in [unknown, misspelled, callState] {
            #expect(error?.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                || $0.properties.generalCategory == .format } == false)
        }
    }

    @Test("SetPreferences refuses an entry with a control or formatting character: no device id has one")
    func preferencesRefuseControls() {
        for (entry, code) in [("evil\u{1B}[2J", "U+001B"), ("speaker\u{202E}", "U+202E"), ("a\u{85}b", "U+0085"),
                              ("zero\u{200B}width", "U+200B")] {
            let error = #expect(throws: BusError.self) { try decode("SetPreferences", [.strings(["bluetooth", entry])]) }
            #expect(error?.name == RouteKitInterface.ErrorName.invalidPreference)
            #expect(error?.message.contains(code) == true, "\(String(describing: error))")
            #expect(error?.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                || $0.properties.generalCategory == .format } == false)
        }
        // Ordinary device ids, with the characters servers use, are kept.
        #expect(throws: Never.self) {
            try decode("SetPreferences", [.strings(["alsa_card.pci-0000_00_1f.3/analog-output", "bluez:AA", "Écouteurs"])])
        }
    }

    @Test("the other requests map onto the engine one to one")
    func oneToOne() throws {
        let state = Devices.state(route: Devices.speaker)
        #expect(try RouteKitRequest.clearSelection.operation(devices: Devices.all, state: state) == .select(nil))
        #expect(try RouteKitRequest.clearPreferences.operation(devices: Devices.all, state: state) == .restoreConfiguredPreferences)
        #expect(try RouteKitRequest.startCall.operation(devices: Devices.all, state: state) == .callAudio(true))
        #expect(try RouteKitRequest.endCall.operation(devices: Devices.all, state: state) == .callAudio(false))
        #expect(try RouteKitRequest.muteMicrophone(true).operation(devices: Devices.all, state: state) == .muteMicrophone(true))
        #expect(try RouteKitRequest.refresh.operation(devices: Devices.all, state: state) == .refresh)
        #expect(try RouteKitRequest.status.operation(devices: Devices.all, state: state) == .nothing)
    }
}
