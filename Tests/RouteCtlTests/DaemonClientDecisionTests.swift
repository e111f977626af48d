import DBus
@testable import RouteCtlCommands
@testable import RouteKitDaemon
import RouteKit
import RouteKitDBus
import Testing

/// What routectl makes of the daemon's answers, without a bus: its errors as exit statuses,
/// and its records as `routectl status` shows them.
@Suite("routectl's reading of the daemon's answers")
struct DaemonClientDecisionTests {
    func failure(_ name: String, _ message: String = "m", target: String? = nil) -> RouteCtlFailure {
        DaemonErrorMapping.failure(BusError(name: name, message: message), calling: "Use", timeout: .seconds(15), target: target)
    }

    @Test("the daemon's errors keep the direct commands' exit statuses")
    func exitStatuses() {
        let unknown = RouteKitInterface.ErrorName.unknownDevice
        #expect(failure(unknown, "no device \"x\" is present. Kinds: ...", target: "x").exitStatus == 67)
        #expect(failure(unknown, target: "x").description == "m", "the daemon's message, which lists the devices")
        #expect(failure(unknown, target: "speakerfone").exitStatus == 64, "a misspelled kind is a usage error, as without the daemon")
        #expect(failure(unknown, target: "virtual").exitStatus == 64)
        #expect(failure(RouteKitInterface.ErrorName.notUsable).exitStatus == 67)
        #expect(failure(RouteKitInterface.ErrorName.invalidPreference).exitStatus == 64)
        #expect(failure(RouteKitInterface.ErrorName.serverFailed).exitStatus == 70)
        #expect(failure(BusError.unknownMethodName).exitStatus == 70)
        let lost = failure(BusError.noReplyName, "Message recipient disconnected from message bus without replying")
        #expect(lost.exitStatus == 68)
        #expect(lost.description.contains("the daemon did not answer Use"), "\(lost)")
        #expect(lost.description.contains("waited up to 15 s"), "\(lost)")
        #expect(failure(BusError.disconnectedName).exitStatus == 68)
        #expect(failure(DaemonErrorMapping.serviceUnknownName).exitStatus == 68)
    }

    @Test("Status and ListDevices records become routectl status's view")
    func records() throws {
        let speaker = try #require(DaemonRecords.device([
            "id": .string("speaker"), "kind": .string("speakerphone"), "description": .string("Speaker"),
            "availability": .string("available"), "active": .boolean(true), "bus": .string(""),
            "form_factor": .string("internal"), "output_sink": .string("speaker"), "input_source": .string(""),
        ]))
        #expect(speaker.kind == .speakerphone)
        #expect(speaker.output?.deviceName == "speaker")
        #expect(speaker.input == nil)
        #expect(speaker.bus == nil)
        let status = DaemonRecords.status([
            "Route": .string("speaker"), "Preferences": .strings(["bluetooth", "speakerphone"]), "Selection": .string(""),
            "CallAudio": .boolean(true), "MicMuted": .boolean(false), "Yielding": .boolean(false),
            "InputSource": .string(""), "PreferencesOrigin": .string("runTime"),
        ], devices: [speaker], processID: 42)
        #expect(status.answerer == .daemon)
        #expect(status.output?.id == "speaker")
        #expect(status.why == "preference 2, speakerphone: nothing before it is present and usable")
        #expect(status.preferencesOrigin == .runTime)
        #expect(status.selection == nil)
        #expect(status.isCallAudioOn)
        #expect(status.daemonProcessID == 42)
    }
}
