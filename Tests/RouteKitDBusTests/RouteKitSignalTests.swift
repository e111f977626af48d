import DBus
import RouteKit
import RouteKitDBus
import Testing

/// RouteKit1's signals: what the daemon emits is what the interface declares.
@Suite("RouteKit1 signals")
struct RouteKitSignalTests {
    static let examples: [RouteKitSignal] = [
        .routeChanged(from: nil, to: Devices.headset.id, reason: .deviceAppeared),
        .switchFailed(device: Devices.headset.id, failure: SwitchFailure(step: .defaultSink, message: "refused")),
        .devicesChanged(Devices.all),
        .volumeButtonPressed(.down),
        .mediaPaused(players: ["org.mpris.MediaPlayer2.mpv"], reason: "bt_headset went away"),
        .mediaResumed(players: [], reason: "bt_headset is back"),
    ]

    @Test("each signal's arguments have the declared types, in order", arguments: examples)
    func argumentsMatchTheDeclaration(_ signal: RouteKitSignal) {
        #expect(signal.arguments.map(\.signature) == signal.kind.declaration.arguments.map(\.signature))
    }

    @Test("the interface declares every signal once, under its own name")
    func interfaceDeclaresEachSignal() {
        let declared = RouteKitInterface.interface.signals.map(\.name)
        #expect(declared == RouteKitSignal.Kind.allCases.map(\.member))
        #expect(Set(declared).count == declared.count)
        #expect(Set(Self.examples.map(\.kind.member)) == Set(declared), "every kind has an example above")
    }

    @Test("the wire words stay as Docs/DBus.md gives them")
    func wireWords() {
        #expect(RouteKitSignal.volumeButtonPressed(.mute).arguments == [.string("mute")])
        #expect(RouteKitSignal.routeChanged(from: nil, to: nil, reason: .started).arguments
            == [.string(""), .string(""), .string("started")])
        #expect(ContextProperties.values(for: ContextSnapshot(silentMode: .silent, screenLock: .locked, idle: .active))["Idle"]
            == .string("active"))
        #expect(ContextSnapshot().silentMode.rawValue == "unknown")
    }
}
