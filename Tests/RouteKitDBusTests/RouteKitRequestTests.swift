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

    @Test("the other requests map onto the engine one to one")
    func oneToOne() throws {
        let state = Devices.state(route: Devices.speaker)
        #expect(try RouteKitRequest.clearSelection.operation(devices: Devices.all, state: state) == .select(nil))
        #expect(try RouteKitRequest.clearPreferences.operation(devices: Devices.all, state: state) == .setPreferences([]))
        #expect(try RouteKitRequest.startCall.operation(devices: Devices.all, state: state) == .callAudio(true))
        #expect(try RouteKitRequest.endCall.operation(devices: Devices.all, state: state) == .callAudio(false))
        #expect(try RouteKitRequest.muteMicrophone(true).operation(devices: Devices.all, state: state) == .muteMicrophone(true))
        #expect(try RouteKitRequest.refresh.operation(devices: Devices.all, state: state) == .refresh)
        #expect(try RouteKitRequest.status.operation(devices: Devices.all, state: state) == .nothing)
    }
}
