import DBus
import Foundation
import ScreenLock
import TestSupport
import Testing

/// The session bus restarted under the monitor: its screensaver's answer is unknown while the
/// bus is gone, and the monitor follows the screensaver of the new bus, every time.
@Suite("screen lock across session bus restarts", .serialized)
struct ScreenLockBusRestartTests {
    /// Restarts: `ROUTEKIT_FAULT_REPEATS` (scripts/reliability/faults-bus-restart sets 20), else 3.
    static let restarts = ProcessInfo.processInfo.environment["ROUTEKIT_FAULT_REPEATS"].flatMap { Int($0) } ?? 3

    @Test("the session bus restarted again and again: unknown while it is gone, the new bus's screensaver followed each time")
    func sessionBusRestarts() async throws {
        try await ScreenLockRig.with { rig in
            try await withMonitor(rig.configuration(logind: false)) { _, changes in
                let first = try await rig.startGnomeScreenSaver()
                #expect(try await changes.next("the screensaver read") == ScreenSaverLockTests.fromGnome(.unlocked))
                var screenSaver = first
                for restart in 1...Self.restarts {
                    try await rig.sessionBus.restart()
                    #expect(try await changes.next("unknown after restart \(restart)") == .unknown)
                    await screenSaver.stop()
                    let observer = try await BusConnection.open(.address(rig.sessionBus.address))
                    screenSaver = try await DBusMock.start(template: "gnome_screensaver", busName: "org.gnome.ScreenSaver",
                                                           on: rig.sessionBus, asSystemBus: false, observer: observer)
                    #expect(try await changes.next("the new bus's screensaver read after restart \(restart)")
                        == ScreenSaverLockTests.fromGnome(.unlocked))
                    _ = try await observer.call(BusCall(destination: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver",
                                                        interface: "org.gnome.ScreenSaver", member: "SetActive",
                                                        arguments: [.boolean(true)]))
                    #expect(try await changes.next("locked after restart \(restart)") == ScreenSaverLockTests.fromGnome(.locked))
                    _ = try await observer.call(BusCall(destination: "org.gnome.ScreenSaver", path: "/org/gnome/ScreenSaver",
                                                        interface: "org.gnome.ScreenSaver", member: "SetActive",
                                                        arguments: [.boolean(false)]))
                    #expect(try await changes.next("unlocked after restart \(restart)") == ScreenSaverLockTests.fromGnome(.unlocked))
                    await observer.close()
                }
                await screenSaver.stop()
            }
        }
    }
}
