import PulseAudio
import RouteKit
import Testing

/// The ranking rules, on devices built by hand.
@Suite("RoutePolicy")
struct RoutePolicyTests {
    static func device(_ id: String, _ kind: AudioDeviceKind, _ availability: PortAvailability = .available,
                       sink: String? = nil, requiredProfile: String? = nil, output: Bool = true) -> AudioDevice {
        AudioDevice(id: AudioDevice.ID(rawValue: id), kind: kind, description: id, bus: nil, formFactor: nil,
                    availability: availability, isActive: false, card: nil,
                    output: output ? AudioDevice.Endpoint(deviceName: requiredProfile == nil ? (sink ?? id) : nil, port: nil,
                                                          description: id) : nil,
                    input: nil, requiredProfile: requiredProfile)
    }

    let speaker = device("speaker", .speakerphone)
    let headsetA = device("bt-a", .bluetooth)
    let headsetB = device("bt-b", .bluetooth)
    let hdmi = device("hdmi", .external)
    let null = device("null", .virtual)

    @Test("entries in order; within one, available before unknown, newest, then id")
    func ordering() {
        let unknown = Self.device("bt-c", .bluetooth, .unknown)
        let ranked = RoutePolicy.candidates(among: [speaker, unknown, headsetA, headsetB],
                                            preferences: [.kind(.bluetooth), .kind(.speakerphone)], selection: nil,
                                            arrivals: ["bt-a": 1, "bt-b": 2, "bt-c": 3])
        #expect(ranked.map(\.id.rawValue) == ["bt-b", "bt-a", "bt-c", "speaker"])
        let tied = RoutePolicy.candidates(among: [headsetB, headsetA], preferences: [.kind(.bluetooth)], selection: nil)
        #expect(tied.map(\.id.rawValue) == ["bt-a", "bt-b"], "no arrival known: by id")
    }

    @Test("HDMI and virtual devices only when named exactly")
    func exactOnly() {
        let all = [hdmi, null, speaker]
        #expect(RoutePolicy.candidates(among: all, preferences: [.kind(.external), .kind(.virtual)], selection: nil).isEmpty)
        #expect(RoutePolicy.candidates(among: all, preferences: [.device("null"), .kind(.speakerphone)], selection: nil)
                .map(\.id.rawValue) == ["null", "speaker"])
        #expect(RoutePolicy.candidates(among: all, preferences: [], selection: "hdmi").map(\.id.rawValue) == ["hdmi"])
    }

    @Test("the manual selection first; unavailable, outputless and sinkless devices never")
    func selectionAndUsability() {
        let gone = Self.device("bt-gone", .bluetooth, .unavailable)
        let micOnly = Self.device("mic", .bluetooth, output: false)
        let leaving = AudioDevice(id: "bt-leaving", kind: .bluetooth, description: "", bus: nil, formFactor: nil,
                                  availability: .unknown, isActive: false, card: "c",
                                  output: AudioDevice.Endpoint(deviceName: nil, port: "headset-output", description: ""),
                                  input: nil, requiredProfile: nil)
        let needsProfile = Self.device("bt-off", .bluetooth, requiredProfile: "a2dp_sink")
        let ranked = RoutePolicy.candidates(among: [gone, micOnly, leaving, needsProfile, speaker],
                                            preferences: [.kind(.bluetooth)], selection: "speaker")
        #expect(ranked.map(\.id.rawValue) == ["speaker", "bt-off"])
        #expect(RoutePolicy.candidates(among: [gone], preferences: [], selection: "bt-gone").isEmpty)
    }

    @Test("each device in the first tier that admits it only: the selection, a kind, a device entry, a kind twice")
    func firstTierOnly() {
        func tiers(_ preferences: [AudioPreference], selection: AudioDevice.ID? = nil,
                   automatic: AutomaticChoice = AutomaticChoice()) -> [[String]] {
            RoutePolicy.tiers(among: [speaker, headsetA, headsetB], preferences: preferences, selection: selection,
                              arrivals: ["bt-a": 1, "bt-b": 2], automatic: automatic).map { $0.map(\.id.rawValue) }
        }
        #expect(tiers([.kind(.bluetooth)], selection: "bt-a") == [["bt-a"], ["bt-b"]])
        #expect(tiers([.kind(.bluetooth), .device("bt-a"), .kind(.speakerphone)]) == [["bt-b", "bt-a"], ["speaker"]])
        #expect(tiers([.device("bt-a"), .kind(.bluetooth), .kind(.bluetooth)]) == [["bt-a"], ["bt-b"]])
        // A device its kind entry may not choose is still there for an entry that names it.
        let neverA = AutomaticChoice(never: ["bt-a"])
        #expect(tiers([.kind(.bluetooth), .device("bt-a")], automatic: neverA) == [["bt-b"], ["bt-a"]])
        #expect(tiers([.kind(.speakerphone), .device("speaker")], selection: "speaker") == [["speaker"]])
    }

    @Test("preference text: kinds by name, anything else a device; external and virtual refused")
    func parsing() {
        #expect(AudioPreference("bluetooth") == .kind(.bluetooth))
        #expect(AudioPreference("wired-headset") == .kind(.wiredHeadset))
        #expect(AudioPreference("WiredHeadset") == .kind(.wiredHeadset))
        #expect(AudioPreference("bluez_card.00_1B_66_AA_BB_CC/headset-output")
                == .device("bluez_card.00_1B_66_AA_BB_CC/headset-output"))
        #expect(AudioPreference("virtual") == nil)
        #expect(AudioPreference("external") == nil)
        #expect(AudioPreference("  ") == nil)
        #expect(AudioPreference.kind(.earpiece).description == "earpiece")
    }
}
