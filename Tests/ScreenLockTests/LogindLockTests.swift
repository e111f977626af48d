import DBus
import Glibc
import ScreenLock
import TestSupport
import Testing

/// logind on a private bus standing in for the system bus: python3-dbusmock's `logind`
/// template (and the tests' template over it, which answers `GetSession` as logind does).
@Suite("screen lock from logind", .serialized)
struct LogindLockTests {
    static func session(_ id: String, _ lookup: SessionLookup) -> ScreenLockSource {
        .logind(LogindSession(id: id, path: ScreenLockRig.sessionPath(id), lookup: lookup))
    }

    static func state(_ lock: LockState, idle: Bool, from source: ScreenLockSource) -> ScreenLockState {
        ScreenLockState(lock: lock, idle: idle, lockSource: source, idleSource: source)
    }

    @Test("the session GetSession(\"auto\") names is followed on its real path: locked, idle, unlocked")
    func followsSession() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startLogind(#"{"sessions": ["c2", "c3"], "auto": "c2"}"#)
            try await withMonitor(rig.configuration(screenSavers: false)) { monitor, changes in
                let c2 = Self.session("c2", .auto)
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c2))
                // Locked from outside, as a lock screen does, with systemd's own client.
                try await rig.busctl(on: rig.systemBus, ["call", "org.freedesktop.login1", ScreenLockRig.sessionPath("c2"),
                                                             "org.freedesktop.login1.Session", "SetLockedHint", "b", "true"])
                #expect(try await changes.next("LockedHint true") == Self.state(.locked, idle: false, from: c2))
                try await rig.setIdleHint(true, session: "c2")
                #expect(try await changes.next("IdleHint true") == Self.state(.locked, idle: true, from: c2))
                try await rig.setLockedHint(false, session: "c2")
                #expect(try await changes.next("LockedHint false") == Self.state(.unlocked, idle: true, from: c2))
                #expect(monitor.state == Self.state(.unlocked, idle: true, from: c2))
            }
            await logind.stop()
        }
    }

    @Test("another session's hints, and PropertiesChanged on the session's path from anyone but logind, change nothing")
    func nothingElseCounts() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startLogind(#"{"sessions": ["c2", "c3"], "auto": "c2"}"#)
            try await withMonitor(rig.configuration(screenSavers: false)) { monitor, changes in
                let c2 = Self.session("c2", .auto)
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c2))
                try await rig.setLockedHint(true, session: "c3")
                try await rig.setIdleHint(true, session: "c3")
                // Another connection announcing the session locked, at its very path and interface.
                let forger = try await BusConnection.open(.address(rig.systemBus.address))
                let forged = try await forger.export(
                    BusInterface(name: "org.freedesktop.login1.Session", properties: [BusProperty("LockedHint", .boolean)]),
                    at: ScreenLockRig.sessionPath("c2"), properties: ["LockedHint": .boolean(false)])
                forged.setProperties(["LockedHint": .boolean(true)])
                _ = try await forger.owner(of: "org.freedesktop.login1")  // the forged signal has gone out
                // The next change the monitor makes is this one, with the lock as it was.
                try await rig.setIdleHint(true, session: "c2")
                #expect(try await changes.next("c2 idle") == Self.state(.unlocked, idle: true, from: c2))
                #expect(monitor.state.lock == .unlocked)
                await forger.close()
            }
            await logind.stop()
        }
    }

    @Test("when GetSession(\"auto\") fails, GetSessionByPID(own pid) finds the session, and the state says so")
    func byProcessID() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startLogind(#"{"sessions": ["c2", "c3"], "by_pid": "c3"}"#)
            try await withMonitor(rig.configuration(screenSavers: false, sessionID: "c2")) { _, changes in
                let c3 = Self.session("c3", .processID(UInt32(getpid())))
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c3))
                try await rig.setLockedHint(true, session: "c3")
                #expect(try await changes.next("c3 locked") == Self.state(.locked, idle: false, from: c3))
            }
            await logind.stop()
        }
    }

    @Test("on the stock template (GetSession(\"auto\") names no object, no GetSessionByPID), XDG_SESSION_ID's session is followed")
    func byEnvironment() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startStockLogind()
            try await rig.addSession("c7")
            try await withMonitor(rig.configuration(screenSavers: false, sessionID: "c7")) { _, changes in
                let c7 = Self.session("c7", .environment("c7"))
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c7))
                try await rig.setLockedHint(true, session: "c7")
                #expect(try await changes.next("c7 locked") == Self.state(.locked, idle: false, from: c7))
            }
            await logind.stop()
        }
    }

    @Test("a PropertiesChanged that only invalidates LockedHint makes the monitor read it again")
    func invalidatedHint() async throws {
        try await ScreenLockRig.with { rig in
            let logind = try await rig.startLogind(#"{"sessions": ["c2"], "auto": "c2"}"#)
            // A method that changes LockedHint and announces it without its value.
            let quietly = """
                self.props["org.freedesktop.login1.Session"]["LockedHint"] = args[0]; \
                self.EmitSignal("org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as", \
                ["org.freedesktop.login1.Session", dbus.Dictionary({}, signature="sv"), ["LockedHint"]])
                """
            try await rig.busctl(on: rig.systemBus, ["call", "org.freedesktop.login1", ScreenLockRig.sessionPath("c2"),
                                                         "org.freedesktop.DBus.Mock", "AddMethod", "sssss",
                                                         "org.freedesktop.login1.Session", "SetQuietly", "b", "", quietly])
            try await withMonitor(rig.configuration(screenSavers: false)) { _, changes in
                let c2 = Self.session("c2", .auto)
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c2))
                try await rig.busctl(on: rig.systemBus, ["call", "org.freedesktop.login1", ScreenLockRig.sessionPath("c2"),
                                                             "org.freedesktop.login1.Session", "SetQuietly", "b", "true"])
                #expect(try await changes.next("LockedHint invalidated") == Self.state(.locked, idle: false, from: c2))
            }
            await logind.stop()
        }
    }

    @Test("logind going away makes the state unknown; when it comes back, its session is followed again")
    func logindRestarts() async throws {
        try await ScreenLockRig.with { rig in
            let first = try await rig.startLogind(#"{"sessions": ["c2"], "auto": "c2"}"#)
            try await withMonitor(rig.configuration(screenSavers: false)) { monitor, changes in
                let c2 = Self.session("c2", .auto)
                #expect(try await changes.next("the session read") == Self.state(.unlocked, idle: false, from: c2))
                await first.stop()
                #expect(try await changes.next("logind gone") == .unknown)
                #expect(monitor.state == .unknown)
                // The new logind has the session locked: read afresh on its arrival.
                let second = try await rig.startLogind(#"{"sessions": ["c2"], "auto": "c2", "locked": ["c2"]}"#)
                #expect(try await changes.next("logind back") == Self.state(.locked, idle: false, from: c2))
                try await rig.setLockedHint(false, session: "c2")
                #expect(try await changes.next("unlocked on the new logind") == Self.state(.unlocked, idle: false, from: c2))
                await second.stop()
            }
        }
    }
}
