import DBus
@testable import ScreenLock
import Testing

/// The combining rule and the real-change filter, as pure values.
@Suite("screen lock state")
struct ScreenLockStateTests {
    static let session = ScreenLockSource.logind(LogindSession(id: "c2", path: "/org/freedesktop/login1/session/c2",
                                                               lookup: .auto))
    static let gnome = ScreenLockSource.screenSaver(.gnome)
    static let freedesktop = ScreenLockSource.screenSaver(.freedesktop)

    @Test("locked if any source says locked, from the first that does; unknown when none answers")
    func combining() {
        #expect(ScreenLockState(combining: []) == .unknown)
        let logindUnlocked = SourceAnswer(source: Self.session, locked: false, idle: false)
        let gnomeLocked = SourceAnswer(source: Self.gnome, locked: true, idle: nil)
        #expect(ScreenLockState(combining: [logindUnlocked, gnomeLocked])
            == ScreenLockState(lock: .locked, idle: false, lockSource: Self.gnome, idleSource: Self.session))
        let logindLocked = SourceAnswer(source: Self.session, locked: true, idle: true)
        #expect(ScreenLockState(combining: [logindLocked, gnomeLocked])
            == ScreenLockState(lock: .locked, idle: true, lockSource: Self.session, idleSource: Self.session))
        let freedesktopUnlocked = SourceAnswer(source: Self.freedesktop, locked: false, idle: nil)
        #expect(ScreenLockState(combining: [freedesktopUnlocked])
            == ScreenLockState(lock: .unlocked, idle: nil, lockSource: Self.freedesktop, idleSource: nil))
    }

    @Test("only real changes come out: the same answer again, or one that leaves the verdict and its source, is none")
    func realChanges() {
        var sources = ScreenLockSources(order: [.logind, .screenSaver(.gnome)])
        let locked = SourceAnswer(source: Self.session, locked: true, idle: false)
        #expect(sources.record(locked, from: .logind)?.lock == .locked)
        #expect(sources.record(locked, from: .logind) == nil)
        // The screensaver agreeing changes nothing a caller sees: logind stays the source.
        #expect(sources.record(SourceAnswer(source: Self.gnome, locked: true, idle: nil), from: .screenSaver(.gnome)) == nil)
        // logind unlocking hands the verdict to the screensaver: still locked, but from it.
        #expect(sources.record(SourceAnswer(source: Self.session, locked: false, idle: false), from: .logind)
            == ScreenLockState(lock: .locked, idle: false, lockSource: Self.gnome, idleSource: Self.session))
        #expect(sources.record(nil, from: .screenSaver(.gnome))?.lock == .unlocked)
        #expect(sources.record(nil, from: .logind) == .unknown)
        #expect(sources.state == .unknown)
    }

    @Test("PropertiesChanged: new values are taken, invalidated hints become unknown and are to be read, other interfaces ignored")
    func sessionHints() throws {
        var hints = SessionHints(properties: ["LockedHint": .boolean(false), "IdleHint": .boolean(false), "Id": .string("c2")])
        let session = LogindSession(id: "c2", path: "/p", lookup: .auto)
        #expect(hints.answer(for: session) == SourceAnswer(source: .logind(session), locked: false, idle: false))
        let locked = try #require(PropertiesChange(Self.propertiesChanged("org.freedesktop.login1.Session",
                                                                          ["LockedHint": .boolean(true)], [])))
        #expect(hints.apply(locked).isEmpty)
        #expect(hints.locked == true)
        let invalidated = try #require(PropertiesChange(Self.propertiesChanged("org.freedesktop.login1.Session", [:],
                                                                               ["IdleHint", "Name", "LockedHint"])))
        #expect(hints.apply(invalidated) == ["IdleHint", "LockedHint"])
        #expect(hints.answer(for: session) == nil)
        let other = try #require(PropertiesChange(Self.propertiesChanged("org.freedesktop.login1.Seat",
                                                                         ["LockedHint": .boolean(true)], ["IdleHint"])))
        #expect(hints.apply(other).isEmpty)
        #expect(hints.locked == nil)
    }

    static func propertiesChanged(_ interface: String, _ changed: [String: BusValue], _ invalidated: [String])
        -> BusSignalMessage {
        BusSignalMessage(sender: ":1.1", path: "/p", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                         arguments: [.string(interface), .variantDictionary(changed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
                                     .strings(invalidated)])
    }
}
