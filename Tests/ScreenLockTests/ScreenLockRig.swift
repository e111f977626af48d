import DBus
import Foundation
import Logging
import ProcessRunner
import ScreenLock
import TestSupport
import Testing

/// Two private buses — one standing in for the system bus, one for the session bus — with a
/// connection to each that drives the mocks, and the monitor's configuration for them.
struct ScreenLockRig: Sendable {
    /// Where logind's mock runs.
    let systemBus: PrivateSessionBus
    /// Where the screensavers' mocks run.
    let sessionBus: PrivateSessionBus
    /// A connection to ``systemBus`` for driving logind's mock.
    let system: BusConnection
    /// A connection to ``sessionBus`` for driving the screensavers' mocks.
    let session: BusConnection

    /// Starts both buses, runs `body`, then closes the connections and stops the buses.
    static func with(_ body: (ScreenLockRig) async throws -> Void) async throws {
        try await PrivateSessionBus.withBus { systemBus in
            try await PrivateSessionBus.withBus { sessionBus in
                let rig = ScreenLockRig(systemBus: systemBus, sessionBus: sessionBus,
                                        system: try await BusConnection.open(.address(systemBus.address)),
                                        session: try await BusConnection.open(.address(sessionBus.address)))
                do {
                    try await body(rig)
                } catch {
                    await rig.system.close()
                    await rig.session.close()
                    throw error
                }
                await rig.system.close()
                await rig.session.close()
            }
        }
    }

    /// The monitor's configuration for these buses: this process's pid, no `XDG_SESSION_ID`
    /// unless given.
    func configuration(logind: Bool = true, screenSavers: Bool = true, sessionID: String? = nil) -> ScreenLockConfiguration {
        ScreenLockConfiguration(systemBus: logind ? .address(systemBus.address) : nil,
                                sessionBus: screenSavers ? .address(sessionBus.address) : nil,
                                sessionID: sessionID)
    }

    // MARK: Mocks

    /// logind (the tests' template over the stock one) with `parameters` (see
    /// ``MockTemplates/logindSessions``).
    func startLogind(_ parameters: String) async throws -> DBusMock {
        let template = try MockTemplates.write(MockTemplates.logindSessions, named: "logind_sessions",
                                               in: systemBus.directory)
        return try await DBusMock.start(template: template, busName: "org.freedesktop.login1", on: systemBus,
                                        asSystemBus: true, parameters: parameters, observer: system)
    }

    /// python3-dbusmock's own `logind` template, unchanged.
    func startStockLogind() async throws -> DBusMock {
        try await DBusMock.start(template: "logind", busName: "org.freedesktop.login1", on: systemBus,
                                 asSystemBus: true, observer: system)
    }

    /// python3-dbusmock's `gnome_screensaver` template on the session bus.
    func startGnomeScreenSaver() async throws -> DBusMock {
        try await DBusMock.start(template: "gnome_screensaver", busName: "org.gnome.ScreenSaver", on: sessionBus,
                                 asSystemBus: false, observer: session)
    }

    /// `org.freedesktop.ScreenSaver` at `/ScreenSaver`, as KDE serves it.
    func startFreedesktopScreenSaverAtRoot() async throws -> DBusMock {
        let template = try MockTemplates.write(MockTemplates.freedesktopScreenSaverAtRoot, named: "freedesktop_screensaver",
                                               in: sessionBus.directory)
        return try await DBusMock.start(template: template, busName: "org.freedesktop.ScreenSaver", on: sessionBus,
                                        asSystemBus: false, observer: session)
    }

    // MARK: Driving the mocks

    /// The session object of `id`.
    static func sessionPath(_ id: String) -> String { "/org/freedesktop/login1/session/\(id)" }

    /// `SetLockedHint(locked)` on session `id`, as a desktop's lock screen calls it.
    func setLockedHint(_ locked: Bool, session id: String) async throws {
        _ = try await system.call(BusCall(destination: "org.freedesktop.login1", path: Self.sessionPath(id),
                                          interface: "org.freedesktop.login1.Session", member: "SetLockedHint",
                                          arguments: [.boolean(locked)], timeout: .seconds(10)))
    }

    /// Session `id`'s `IdleHint`, changed through the mock's `UpdateProperties` (which emits
    /// `PropertiesChanged` as logind does).
    func setIdleHint(_ idle: Bool, session id: String) async throws {
        _ = try await system.call(BusCall(destination: "org.freedesktop.login1", path: Self.sessionPath(id),
                                          interface: "org.freedesktop.DBus.Mock", member: "UpdateProperties",
                                          arguments: [.string("org.freedesktop.login1.Session"),
                                                      .variantDictionary([("IdleHint", .boolean(idle))])],
                                          timeout: .seconds(10)))
    }

    /// A session the stock template's `AddSession` adds.
    func addSession(_ id: String) async throws {
        _ = try await system.call(BusCall(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                          interface: "org.freedesktop.DBus.Mock", member: "AddSession",
                                          arguments: [.string(id), .string("seat0"), .uint32(1000), .string("user"),
                                                      .boolean(true)],
                                          timeout: .seconds(10)))
    }

    /// Runs `busctl --address=BUS ARGUMENTS` and returns what it printed; fails on a non-zero exit.
    @discardableResult
    func busctl(on bus: PrivateSessionBus, _ arguments: [String]) async throws -> String {
        try await run(["/usr/bin/busctl", "--address=\(bus.address)"] + arguments)
    }

    /// Runs `gdbus ARGUMENTS --address BUS`; fails on a non-zero exit.
    @discardableResult
    func gdbus(on bus: PrivateSessionBus, _ command: String, _ arguments: [String]) async throws -> String {
        try await run(["/usr/bin/gdbus", command, "--address", bus.address] + arguments)
    }

    private func run(_ commandLine: [String]) async throws -> String {
        let run = try await ChildProcess.run(commandLine, environment: ["PATH": "/usr/bin:/bin"], timeLimit: .seconds(20))
        #expect(run.termination.exitStatus == 0, "\(commandLine.joined(separator: " ")): \(run.standardError)")
        return run.standardOutput
    }
}

/// Runs `monitor` for the length of `body`, which gets it and its changes from before it ran.
func withMonitor(_ configuration: ScreenLockConfiguration,
                 _ body: @Sendable (ScreenLockMonitor, MonitorChanges) async throws -> Void) async throws {
    // Quiet: the tests' expectations say what happened.
    let monitor = ScreenLockMonitor(configuration: configuration,
                                    logger: Logger(label: "screenlock-test", factory: { _ in SwiftLogNoOpLogHandler() }))
    let changes = MonitorChanges(monitor.changes())
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await monitor.run() }
        try await body(monitor, changes)
        group.cancelAll()
        try await group.waitForAll()
    }
    #expect(monitor.state == .unknown, "the state is unknown once run() has ended")
}

/// A monitor's changes, read one at a time.
struct MonitorChanges: Sendable {
    let stream: AsyncStream<ScreenLockState>

    init(_ stream: AsyncStream<ScreenLockState>) {
        self.stream = stream
    }

    /// The next change.
    func next(_ what: String) async throws -> ScreenLockState {
        try await withTimeout("the next screen lock change: \(what)") { [stream] in
            var changes = stream.makeAsyncIterator()
            guard let state = await changes.next() else { throw TimedOut(what: "\(what) (the changes ended)") }
            return state
        }
    }

    /// The changes up to and including the first that `matches`.
    func through(_ what: String, where matches: @escaping @Sendable (ScreenLockState) -> Bool) async throws
        -> [ScreenLockState] {
        try await withTimeout("screen lock changes: \(what)") { [stream] in
            var seen: [ScreenLockState] = []
            for await state in stream {
                seen.append(state)
                if matches(state) { return seen }
            }
            throw TimedOut(what: "\(what) (the changes ended after \(seen))")
        }
    }
}
