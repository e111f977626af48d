import Foundation
import PulseAudio
@testable import RouteCtlCommands
import RouteKit
import RouteKitDaemon
import Testing

/// Devices for the decisions' tests, as DeviceModel shows them.
enum Devices {
    static func make(_ id: String, _ kind: AudioDeviceKind, availability: PortAvailability = .available, card: String? = nil,
                     sink: String? = nil, source: String? = nil, active: Bool = false) -> AudioDevice {
        AudioDevice(id: AudioDevice.ID(rawValue: id), kind: kind, description: id.capitalized, bus: nil, formFactor: nil,
                    availability: availability, isActive: active, card: card,
                    output: .init(deviceName: sink ?? id, port: nil, description: id),
                    input: source.map { .init(deviceName: $0, port: nil, description: $0) }, requiredProfile: nil)
    }

    static let speaker = make("speaker", .speakerphone, active: true)
    static let headset = make("bt_headset", .bluetooth, card: "bluez_card.a")
    static let otherHeadset = make("bt_other", .bluetooth, card: "bluez_card.b")
    static let gone = make("usb_headset", .wiredHeadset, availability: .unavailable)
    static let hdmi = make("hdmi", .external)
}

/// Resolving what a person names on the command line.
@Suite("Device choice")
struct DeviceChoiceTests {
    let devices = [Devices.speaker, Devices.headset, Devices.otherHeadset, Devices.gone, Devices.hdmi]

    @Test func anIdNamesItsDevice() throws {
        #expect(try DeviceChoice.resolve("bt_other", among: devices, route: Devices.speaker).id == "bt_other")
        #expect(try DeviceChoice.resolve("hdmi", among: devices, route: nil).id == "hdmi", "any kind, by id")
    }

    @Test func aKindKeepsTheRouteWhenItIsOfThatKindElseTakesTheFirst() throws {
        #expect(try DeviceChoice.resolve("bluetooth", among: devices, route: Devices.otherHeadset).id == "bt_other")
        #expect(try DeviceChoice.resolve("Bluetooth", among: devices, route: Devices.speaker).id == "bt_headset")
        #expect(try DeviceChoice.resolve("speakerphone", among: devices, route: nil).id == "speaker")
    }

    @Test func aKindHonoursWhatItMayNotChoose() throws {
        let rules = AutomaticChoice(never: ["bluez_card.a"])
        #expect(try DeviceChoice.resolve("bluetooth", among: devices, route: nil, automatic: rules).id == "bt_other")
    }

    /// The failure `text` gives.
    func refusal(of text: String) -> RouteCtlFailure? {
        do throws(RouteCtlFailure) {
            _ = try DeviceChoice.resolve(text, among: devices, route: nil)
            return nil
        } catch {
            return error
        }
    }

    @Test func anUnknownIdExits67AndListsTheUsableDevicesAndKinds() throws {
        let failure = try #require(refusal(of: "bt_headst"))
        #expect(failure.exitStatus == 67)
        let text = failure.description
        #expect(text.hasPrefix("no device \"bt_headst\" is present."), "\(text)")
        #expect(text.contains("Kinds: bluetooth, wiredHeadset, speakerphone, earpiece"), "\(text)")
        for id in ["speaker", "bt_headset", "bt_other", "hdmi"] { #expect(text.contains("  \(id) "), "\(text)") }
        #expect(!text.contains("usb_headset"), "an unavailable device is not offered")
    }

    @Test func theDaemonLibrarysFailuresMapToTheirExitStatuses() {
        #expect(RouteCtlFailure.daemon(.invalidChoice("scope \"application\" needs a match")).exitStatus == 64, "a usage error")
        #expect(RouteCtlFailure.daemon(.busNameTaken("taken")).exitStatus == 75, "temporary: another daemon has the name")
        #expect(RouteCtlFailure.daemon(.unreadableConfiguration(path: "c.toml", reason: "gone")).exitStatus == 66)
    }

    @Test func aMisspelledKindIsAUsageError() throws {
        let failure = try #require(refusal(of: "bluetoth"))
        #expect(failure.exitStatus == 64)
        #expect(failure.description.hasPrefix("no kind \"bluetoth\"; did you mean bluetooth?"), "\(failure)")
    }

    @Test func aKindWithNothingPresentOrAnUnusableDeviceExits67() throws {
        #expect(refusal(of: "earpiece")?.description.hasPrefix("no earpiece device is present and usable.") == true)
        #expect(refusal(of: "earpiece")?.exitStatus == 67)
        #expect(refusal(of: "usb_headset")?.description.hasPrefix("\"usb_headset\" is unavailable now.") == true)
        #expect(refusal(of: "virtual")?.exitStatus == 64)
        #expect(refusal(of: "  ")?.exitStatus == 64)
    }
}

/// The monitor's choices and shapes, without a terminal.
@Suite("Monitor output")
struct MonitorOutputTests {
    @Test func coloursOnlyOnATerminalAndNeverWithNO_COLOR() {
        #expect(TerminalStyle.decide(isTerminal: true, environment: ["TERM": "xterm"]) == .init(redrawsInPlace: true, usesColour: true))
        #expect(TerminalStyle.decide(isTerminal: true, environment: ["TERM": "xterm", "NO_COLOR": "1"])
                == .init(redrawsInPlace: true, usesColour: false))
        #expect(TerminalStyle.decide(isTerminal: true, environment: ["NO_COLOR": ""]).usesColour, "an empty NO_COLOR does not count")
        #expect(TerminalStyle.decide(isTerminal: true, environment: ["TERM": "dumb"]) == .init(redrawsInPlace: false, usesColour: false))
        #expect(TerminalStyle.decide(isTerminal: false, environment: [:]) == .init(redrawsInPlace: false, usesColour: false))
    }

    @Test func theFrameMarksTheRouteAndKeepsTheLastEvents() {
        var model = MonitorModel()
        model.apply(.state(AudioRouteState(devices: [Devices.speaker], route: Devices.speaker, connection: .ready)), at: "12:00:00")
        #expect(model.recent.isEmpty, "the state is the starting point, not an event")
        model.apply(.devicesChanged([Devices.speaker, Devices.headset]), at: "12:00:01")
        model.apply(.routeChanged(from: Devices.speaker, to: Devices.headset, reason: .changedElsewhere), at: "12:00:02")
        let plain = TerminalStyle(redrawsInPlace: true, usesColour: false)
        let lines = MonitorFrame.lines(model, server: "PulseAudio 16.1 at test", mode: "read-only", style: plain, width: 120)
        #expect(lines.contains("Output      bt_headset (Bt_Headset)"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("*  bluetooth") && $0.contains("bt_headset") }, "\(lines)")
        #expect(lines.contains("  12:00:02  route: bt_headset (Bt_Headset) <- speaker (changedElsewhere)"), "\(lines)")
        #expect(!lines.joined().contains("\u{1B}"), "no escape without colour")

        let coloured = MonitorFrame.lines(model, server: "s", mode: "m", style: .init(redrawsInPlace: true, usesColour: true), width: 120)
        #expect(coloured.joined().contains("\u{1B}[32;1m"))
        let narrow = MonitorFrame.lines(model, server: String(repeating: "x", count: 200), mode: "m", style: plain, width: 40)
        #expect(narrow.allSatisfy { $0.count <= 40 })

        for index in 0..<20 { model.apply(.callAudioChanged(isActive: index % 2 == 0), at: "t") }
        #expect(model.recent.count == MonitorModel.recentLimit)
    }

    @Test func theMonitorShowsTheCallsAndTheMicrophonesMute() throws {
        var model = MonitorModel()
        let plain = TerminalStyle(redrawsInPlace: true, usesColour: false)
        model.apply(.callsChanged([CallSession(id: "bus-1", state: .held, origin: .busClient(":1.7"))]), at: "t")
        model.apply(.microphoneMuteChanged(isMuted: true), at: "t")
        let lines = MonitorFrame.lines(model, server: "s", mode: "m", style: plain, width: 120)
        #expect(lines.contains("Calls       bus-1 held (bus client :1.7)"), "\(lines)")
        #expect(lines.contains("Microphone  muted"), "\(lines)")
        #expect(model.recent.last == "t  microphone: muted")
        let json = try MonitorJSONEvent.line(.callsChanged([CallSession(id: "c", state: .active, origin: .implicit)]))
        #expect(json.contains(#""calls":[{"id":"c","origin":"implicit","state":"active"}]"#), "\(json)")
    }

    @Test func aJSONLineIsOneObjectNamingItsEvent() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000.25)
        let line = try MonitorJSONEvent.line(.routeChanged(from: Devices.speaker, to: Devices.headset, reason: .deviceAppeared), at: time)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "routeChanged")
        #expect(object["reason"] as? String == "deviceAppeared")
        #expect((object["to"] as? [String: Any])?["id"] as? String == "bt_headset")
        #expect((object["from"] as? [String: Any])?["kind"] as? String == "speakerphone")
        #expect(object["time"] as? String == "2023-11-14T22:13:20.250Z")

        let state = try MonitorJSONEvent.line(.state(AudioRouteState(devices: [Devices.speaker], route: nil, connection: .ready)))
        let stateObject = try #require(try JSONSerialization.jsonObject(with: Data(state.utf8)) as? [String: Any])
        #expect(stateObject["route"] is NSNull)
        #expect((stateObject["devices"] as? [Any])?.count == 1)
        #expect(stateObject["connected"] as? Bool == true)
        #expect(stateObject["connection"] as? String == "ready")
        #expect(stateObject["attempt"] == nil && stateObject["error"] == nil, "only a reconnection has them")
    }

    @Test func theConnectionIsShownInTheClientsWords() throws {
        let refused = PulseError(.connectionRefused, operation: "connect to the server")
        let second = ConnectionState.reconnecting(attempt: 2, lastError: refused)

        var model = MonitorModel()
        model.apply(.state(AudioRouteState(devices: [Devices.speaker], route: Devices.speaker, connection: .ready)), at: "12:00:00")
        model.apply(.connectionChanged(second), at: "12:00:01")
        let plain = TerminalStyle(redrawsInPlace: true, usesColour: false)
        let lines = MonitorFrame.lines(model, server: "s", mode: "m", style: plain, width: 120)
        #expect(lines.contains { $0.hasSuffix("Server  reconnecting (attempt 2)") }, "\(lines)")
        #expect(lines.contains("  12:00:01  server: connection lost; reconnecting (attempt 2, after: Connection refused)"), "\(lines)")
        model.apply(.connectionChanged(.failed(refused)), at: "12:00:02")
        let gaveUp = MonitorFrame.lines(model, server: "s", mode: "m", style: plain, width: 120)
        #expect(gaveUp.contains { $0.hasSuffix("Server  failed (Connection refused)") }, "\(gaveUp)")
        model.apply(.connectionChanged(.ready), at: "12:00:03")
        let coloured = MonitorFrame.lines(model, server: "s", mode: "m", style: .init(redrawsInPlace: true, usesColour: true), width: 120)
        #expect(coloured.contains { $0.hasSuffix("Server  \u{1B}[32mconnected\u{1B}[0m") }, "\(coloured)")

        func object(_ event: AudioRouteEvent) throws -> [String: Any] {
            let line = try MonitorJSONEvent.line(event)
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let reconnecting = try object(.connectionChanged(second))
        #expect(reconnecting["event"] as? String == "connectionChanged")
        #expect(reconnecting["connection"] as? String == "reconnecting")
        #expect(reconnecting["connected"] as? Bool == false)
        #expect(reconnecting["attempt"] as? Int == 2)
        #expect(reconnecting["error"] as? String == "Connection refused")
        let failed = try object(.connectionChanged(.failed(refused)))
        #expect(failed["connection"] as? String == "failed")
        #expect(failed["attempt"] == nil)
        #expect(failed["error"] as? String == "Connection refused")
        let names: [ConnectionState: String] = [.idle: "idle", .connecting: "connecting", .ready: "ready", .shutDown: "shutdown"]
        for (state, name) in names {
            let each = try object(.connectionChanged(state))
            #expect(each["connection"] as? String == name)
            #expect(each["connected"] as? Bool == (state == .ready))
        }
        let stopped = try object(.state(AudioRouteState(connection: .shutDown)))
        #expect(stopped["connection"] as? String == "shutdown")
        #expect(stopped["connected"] as? Bool == false)
    }
}

/// Why audio goes where it goes, in words.
@Suite("Route explanation")
struct RouteExplanationTests {
    @Test func theReasonNamesTheRule() {
        let preferences: [AudioPreference] = [.kind(.bluetooth), .kind(.speakerphone)]
        #expect(RouteExplanation.why(route: Devices.speaker, preferences: [], selection: nil, answerer: .soundServer)
                == "the server's own default (no RouteKit daemon is running)")
        #expect(RouteExplanation.why(route: Devices.headset, preferences: preferences, selection: nil, answerer: .daemon)
                == "the first preference, bluetooth")
        #expect(RouteExplanation.why(route: Devices.speaker, preferences: preferences, selection: nil, answerer: .daemon)
                == "preference 2, speakerphone: nothing before it is present and usable")
        #expect(RouteExplanation.why(route: Devices.speaker, preferences: preferences, selection: "speaker", answerer: .daemon)
                .hasPrefix("chosen with 'routectl use'"))
        #expect(RouteExplanation.why(route: Devices.hdmi, preferences: preferences, selection: nil, answerer: .daemon)
                == "the server's own choice: no preference matches a usable device")
    }
}
