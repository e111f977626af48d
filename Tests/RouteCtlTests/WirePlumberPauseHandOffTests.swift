import Foundation
import Glibc
import PipeWireDefaults
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// `routectl daemon` with media pausing on turns WirePlumber's own pausing
/// (`linking.pause-playback`, 0.5.11 and later) off in WirePlumber's run-time settings, and puts
/// the user's value back when it stops (Docs/Policy.md, "Beside WirePlumber").
///
/// PipeWire only: the setting is WirePlumber's. On WirePlumber 0.5 (0.5.8 in
/// `scripts/pipewire-root`) the `sm-settings` metadata exists and these tests check what it holds;
/// on 0.4 (no such metadata) they check the daemon leaves everything alone and runs as usual.
@Suite("routectl daemon and WirePlumber's linking.pause-playback")
struct WirePlumberPauseHandOffTests {
    static let key = "linking.pause-playback"

    @Test("no value of the user's: off while the daemon runs, unset again once it stops", .timeLimit(.minutes(1)))
    func unsetBefore() async throws {
        try await handOff(userValue: nil)
    }

    @Test("the user's value true: off while the daemon runs, true again once it stops", .timeLimit(.minutes(1)))
    func trueBefore() async throws {
        try await handOff(userValue: "true")
    }

    /// Starts the daemon (media pausing on: its default, with a session bus for MPRIS) on a
    /// PipeWire server whose setting is `userValue`, checks the setting while it runs, stops it
    /// and checks the setting again.
    func handOff(userValue: String?) async throws {
        try await SandboxServer.withServer(.pipewire) { server in
            _ = try await server.loadNullSink(name: "speaker", properties: DBusAPITests.speaker)
            let settings = Self.settings(on: server)
            let hasSettings = await Self.hasMetadata(settings)
            if hasSettings, let userValue { try await settings.set(Self.key, to: userValue) }
            try await PrivateSessionBus.withBus { bus in
                let daemon = try await SessionBusClients(bus: bus).daemon(["--prefer", "bluetooth"], on: server)
                let log = daemon.standardError
                let route: @Sendable (String) -> Bool = { $0.hasPrefix("route: speaker ") }
                if hasSettings {
                    // The hand-off is the media service's, the route the engine's: either line
                    // can come first (the hand-off came before the route in 1.4.2 runs).
                    let key = Self.key
                    let lines = try await log.nextInAnyOrder("the route on the speaker and the hand-off",
                                                             [route, { $0.hasPrefix("media: WirePlumber's \(key) off") }])
                    #expect(lines.last?.hasSuffix("(was \(userValue ?? "unset"))") == true, "\(lines)")
                    #expect(try await settings.value(of: Self.key) == "false")
                } else {
                    _ = try await log.next("the route on the speaker", where: route)
                }
                daemon.send(SIGTERM)
                #expect(try await daemon.exitStatus() == 0, "\(log.lines)")
                // It ran until told to stop: no service of its group ended it early.
                #expect(!log.lines.contains { $0.hasPrefix("Error:") }, "\(log.lines)")
                // WirePlumber 0.4: nothing to hand off, nothing said.
                if !hasSettings { #expect(!log.lines.contains { $0.contains(Self.key) }, "\(log.lines)") }
            }
            if hasSettings {
                #expect(try await settings.value(of: Self.key) == userValue)
            } else {
                #expect(await !Self.hasMetadata(settings))
            }
        }
    }

    /// WirePlumber's settings on `server`, read with the machine's `pw-metadata`.
    static func settings(on server: SandboxServer) -> WirePlumberSettings {
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return WirePlumberSettings(tool: PipeWireConfiguredDefaults(environment: environment, timeout: .seconds(10)))
    }

    /// Whether the server has an `sm-settings` metadata (WirePlumber 0.5) at all.
    static func hasMetadata(_ settings: WirePlumberSettings) async -> Bool {
        do {
            _ = try await settings.value(of: key)
            return true
        } catch {
            return false
        }
    }
}
