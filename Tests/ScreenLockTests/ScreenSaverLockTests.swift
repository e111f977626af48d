import DBus
import ScreenLock
import TestSupport
import Testing

/// Screensavers on a private session bus, alone and beside logind: python3-dbusmock's
/// `gnome_screensaver` template, and `org.freedesktop.ScreenSaver` at KDE's `/ScreenSaver`.
@Suite("screen lock from screensavers", .serialized)
struct ScreenSaverLockTests {
    static let gnome = ScreenLockSource.screenSaver(.gnome)

    static func fromGnome(_ lock: LockState) -> ScreenLockState {
        ScreenLockState(lock: lock, idle: nil, lockSource: gnome, idleSource: nil)
    }

    @Test("GNOME's screensaver appearing later is followed: active is locked, inactive unlocked, gone unknown")
    func gnomeScreenSaver() async throws {
        try await ScreenLockRig.with { rig in
            try await withMonitor(rig.configuration(logind: false)) { monitor, changes in
                #expect(monitor.state == .unknown)
                let screenSaver = try await rig.startGnomeScreenSaver()
                #expect(try await changes.next("the screensaver read") == Self.fromGnome(.unlocked))
                try await rig.busctl(on: rig.sessionBus, ["call", "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver",
                                                              "org.gnome.ScreenSaver", "SetActive", "b", "true"])
                #expect(try await changes.next("active") == Self.fromGnome(.locked))
                try await rig.gdbus(on: rig.sessionBus, "call", ["--dest", "org.gnome.ScreenSaver",
                                                                     "--object-path", "/org/gnome/ScreenSaver",
                                                                     "--method", "org.gnome.ScreenSaver.SetActive", "false"])
                #expect(try await changes.next("inactive") == Self.fromGnome(.unlocked))
                await screenSaver.stop()
                #expect(try await changes.next("gone") == .unknown)
            }
        }
    }

    @Test("no system bus at all: logind stays unknown, and the screensaver is followed alone")
    func noSystemBus() async throws {
        try await ScreenLockRig.with { rig in
            var configuration = rig.configuration()
            configuration.systemBus = .address("unix:path=\(rig.systemBus.directory)/no-such-bus")
            try await withMonitor(configuration) { _, changes in
                let screenSaver = try await rig.startGnomeScreenSaver()
                #expect(try await changes.next("the screensaver read") == Self.fromGnome(.unlocked))
                try await rig.gdbus(on: rig.sessionBus, "call", ["--dest", "org.gnome.ScreenSaver",
                                                                 "--object-path", "/org/gnome/ScreenSaver",
                                                                 "--method", "org.gnome.ScreenSaver.Lock"])
                #expect(try await changes.next("locked by the screensaver's Lock") == Self.fromGnome(.locked))
                await screenSaver.stop()
            }
        }
    }

    @Test("org.freedesktop.ScreenSaver at /ScreenSaver, where KDE serves it, is a source too")
    func freedesktopAtRoot() async throws {
        try await ScreenLockRig.with { rig in
            try await withMonitor(rig.configuration(logind: false)) { _, changes in
                let screenSaver = try await rig.startFreedesktopScreenSaverAtRoot()
                let source = ScreenLockSource.screenSaver(.freedesktopRoot)
                #expect(try await changes.next("the screensaver read")
                    == ScreenLockState(lock: .unlocked, idle: nil, lockSource: source, idleSource: nil))
                try await rig.busctl(on: rig.sessionBus, ["call", "org.freedesktop.ScreenSaver", "/ScreenSaver",
                                                              "org.freedesktop.ScreenSaver", "SetActive", "b", "true"])
                #expect(try await changes.next("active")
                    == ScreenLockState(lock: .locked, idle: nil, lockSource: source, idleSource: nil))
                await screenSaver.stop()
            }
        }
    }

    @Test("beside logind: locked if either says so, logind preferred; only real changes; unknown when neither answers")
    func secondSource() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startLogind(#"{"sessions": ["c2"], "auto": "c2"}"#)
            let screenSaver = try await rig.startGnomeScreenSaver()
            let c2 = ScreenLockSource.logind(LogindSession(id: "c2", path: ScreenLockRig.sessionPath("c2"), lookup: .auto))
            @Sendable func state(_ lock: LockState, by source: ScreenLockSource) -> ScreenLockState {
                ScreenLockState(lock: lock, idle: false, lockSource: source, idleSource: c2)
            }
            try await withMonitor(rig.configuration()) { monitor, changes in
                // Both read, in either order: the last change is logind's unlocked verdict.
                let first = try await changes.through("both sources read") { $0 == state(.unlocked, by: c2) }
                #expect(first.count <= 2)
                try await rig.busctl(on: rig.sessionBus, ["call", "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver",
                                                              "org.gnome.ScreenSaver", "SetActive", "b", "true"])
                #expect(try await changes.next("screensaver active") == state(.locked, by: Self.gnome))
                try await rig.setLockedHint(true, session: "c2")
                #expect(try await changes.next("logind locked too") == state(.locked, by: c2))
                try await rig.setLockedHint(false, session: "c2")
                #expect(try await changes.next("logind unlocked, the screensaver still active") == state(.locked, by: Self.gnome))
                try await rig.gdbus(on: rig.sessionBus, "call", ["--dest", "org.gnome.ScreenSaver",
                                                                     "--object-path", "/org/gnome/ScreenSaver",
                                                                     "--method", "org.gnome.ScreenSaver.SetActive", "false"])
                #expect(try await changes.next("screensaver inactive") == state(.unlocked, by: c2))
                try await rig.setLockedHint(true, session: "c2")
                #expect(try await changes.next("logind locked") == state(.locked, by: c2))
                // An ActiveChanged(true) from another connection than the screensaver's does not
                // count: when logind unlocks, nothing holds the lock. (The two buses are read by
                // two threads, so a monitor that counted it might still read it late; one that
                // ignores it can never fail here.)
                let forger = try await BusConnection.open(.address(rig.sessionBus.address))
                let forged = try await forger.export(
                    BusInterface(name: "org.gnome.ScreenSaver",
                                 signals: [BusSignal("ActiveChanged", arguments: [BusArgument("active", .boolean)])]),
                    at: "/org/gnome/ScreenSaver", properties: [:])
                forged.emit("ActiveChanged", [.boolean(true)])
                _ = try await forger.owner(of: "org.gnome.ScreenSaver")  // the forged signal has gone out
                try await rig.setLockedHint(false, session: "c2")
                #expect(try await changes.next("logind unlocked") == state(.unlocked, by: c2))
                await forger.close()
                // logind gone: the screensaver alone answers, and says nothing of idleness.
                await logind.stop()
                #expect(try await changes.next("logind gone") == Self.fromGnome(.unlocked))
                await screenSaver.stop()
                #expect(try await changes.next("neither answers") == .unknown)
                #expect(monitor.state == .unknown)
            }
        }
    }
}
