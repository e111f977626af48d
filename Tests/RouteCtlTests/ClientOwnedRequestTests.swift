import DBus
import Foundation
import Glibc
import SoundServerSandbox
import TestSupport
import Testing

/// Requests tied to their callers (issue 17): a client's own calls and its volume capture end
/// when its bus name goes, as when a softphone crashes mid-call.
@Suite("what a D-Bus client holds ends with it")
struct ClientOwnedRequestTests {
    static func call(_ member: String, _ arguments: [BusValue] = []) -> BusCall {
        BusCall(destination: "io.github.routekit.RouteKit1", path: "/io/github/routekit/RouteKit1",
                interface: "io.github.routekit.RouteKit1", member: member, arguments: arguments)
    }

    @Test("a softphone's call opened over D-Bus ends when its connection goes; another client cannot end it",
          arguments: SoundServerKind.allCases)
    func callEndsWithItsClient(kind: SoundServerKind) async throws {
        try await DBusAPITests.withDaemon(kind) { server, clients, daemon in
            let softphone = try await clients.observer()
            let id = try await softphone.call(Self.call("OpenCall", [.string(""), .string("ringing")])).first?.stringValue
            #expect(id == "bus-1")
            #expect(try await clients.property("CallAudio") == "b false", "a ringing call leaves the media route")
            _ = try await softphone.call(Self.call("SetCallState", [.string("bus-1"), .string("active")]))
            #expect(try await clients.property("CallAudio") == "b true")
            let calls = try await clients.property("Calls")
            #expect(calls.contains("\"bus-1\"") && calls.contains("\"active\"") && calls.contains("bus client :"), "\(calls)")

            // Someone else cannot end it.
            let other = try await clients.call("CloseCall", "s", "bus-1")
            #expect(other.status != 0)
            #expect(other.standardError.contains("belongs to another client"), "\(other)")
            #expect(try await clients.property("CallAudio") == "b true")

            // The softphone crashes: its call ends, and the daemon says so.
            await softphone.close()
            _ = try await daemon.standardError.next("the client's call to end") { $0.hasPrefix("dbus: client :") && $0.hasSuffix("went; ended call bus-1") }
            #expect(try await clients.property("CallAudio") == "b false")
            #expect(try await clients.property("Calls") == "aa{sv} 0")
            _ = server
        }
    }

    @Test("a client's call and the session's call are counted apart: ending one keeps call mode")
    func twoCalls() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio) { _, clients, _ in
            let softphone = try await clients.observer()
            _ = try await softphone.call(Self.call("OpenCall", [.string("mine"), .string("active")]))
            #expect(try await clients.call("StartCall").status == 0)
            #expect(try await clients.call("EndCall").status == 0)
            #expect(try await clients.property("CallAudio") == "b true", "the softphone's call goes on")
            _ = try await softphone.call(Self.call("CloseCall", [.string("mine")]))
            #expect(try await clients.property("CallAudio") == "b false")
            let unknown = try await clients.call("SetCallState", "ss", "mine", "held")
            #expect(unknown.standardError.contains("no call \"mine\" is held"), "\(unknown)")
            let badState = try await clients.call("OpenCall", "ss", "x", "dialing")
            #expect(badState.standardError.contains("not a call state: ringing, active or held"), "\(badState)")
            await softphone.close()
        }
    }

    @Test("volume capture held by a client that goes is released")
    func captureEndsWithItsClient() async throws {
        try await DBusAPITests.withDaemon(.pulseaudio) { _, clients, daemon in
            let keys = try await clients.observer()
            _ = try await keys.call(Self.call("StartVolumeCapture"))
            #expect(try await clients.property("VolumeCapture") == "b true")
            await keys.close()
            _ = try await daemon.standardError.next("the client's capture to end") { $0.hasSuffix("went; ended its volume capture") }
            #expect(try await clients.property("VolumeCapture") == "b false")
        }
    }
}
