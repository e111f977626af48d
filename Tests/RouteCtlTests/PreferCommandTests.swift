import Foundation
import SoundServerSandbox
import Testing

/// `routectl prefer` needs the daemon: it says so, with exit codes that tell no daemon (68)
/// from no session bus (72), and refuses a misspelled kind before looking (64).
@Suite("routectl prefer without the daemon")
struct PreferCommandTests {
    @Test("a session bus with no daemon on it exits 68 and says how to start one")
    func noDaemon() async throws {
        // PipeWire's sandbox comes with a private session bus, on which no daemon runs.
        try await RouteCtlSession.with(.pipewire) { session in
            let bus = try #require(session.server.environment["DBUS_SESSION_BUS_ADDRESS"])
            let result = try await session.run(["prefer", "bluetooth", "speakerphone"], server: false,
                                               extra: ["DBUS_SESSION_BUS_ADDRESS": bus])
            #expect(result.status == 68)
            #expect(result.standardError.contains("no daemon is running"), "\(result.standardError)")
            #expect(result.standardError.contains("routectl daemon"))
            #expect(!FileManager.default.fileExists(atPath: session.stateFile), "nothing was kept")
        }
    }

    @Test("no session bus exits 72 and says why")
    func noBus() async throws {
        try await withTemporaryFolder { folder in
            let routectl = try Executable.built("routectl")
            let result = try await routectl.run(["prefer", "--clear"],
                                                environment: ["DBUS_SESSION_BUS_ADDRESS": nil, "XDG_RUNTIME_DIR": folder])
            #expect(result.status == 72)
            #expect(result.standardError.contains("there is none: DBUS_SESSION_BUS_ADDRESS is unset and there is no \(folder)/bus"),
                    "\(result.standardError)")
        }
    }

    @Test("a misspelled kind is a usage error before anything is looked for")
    func misspelled() async throws {
        let routectl = try Executable.built("routectl")
        let result = try await routectl.run(["prefer", "bluetoth"], environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(result.status == 64)
        #expect(result.standardError.contains("prefer bluetoth: no such kind; did you mean bluetooth?"), "\(result.standardError)")
    }
}
