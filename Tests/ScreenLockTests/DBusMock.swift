import ConcurrencySupport
import DBus
import Foundation
import Glibc
import ProcessRunner
import TestSupport

/// A python3-dbusmock service on a private bus, started from a template (a stock one by name,
/// or a file), ready once its bus name has an owner; stopped by its pid.
final class DBusMock: Sendable {
    /// The bus name it owns.
    let busName: String
    private let process: LockedValue<ChildProcess?>

    private init(busName: String, process: ChildProcess) {
        self.busName = busName
        self.process = LockedValue(process)
    }

    /// Starts `template` on `bus`, as the system bus (DBUS_SYSTEM_BUS_ADDRESS) or the session
    /// bus, and returns once `busName` is owned, as `observer` (a connection to `bus`) sees it.
    static func start(template: String, busName: String, on bus: PrivateSessionBus, asSystemBus: Bool,
                      parameters: String? = nil, observer: BusConnection) async throws -> DBusMock {
        let owners = try await observer.signals(matching:
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(busName)'")
        var environment = ["PATH": "/usr/bin:/bin"]
        environment[asSystemBus ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let mockCommand = ["/usr/bin/python3", "-m", "dbusmock", "--template", template,
                           asSystemBus ? "--system" : "--session"] + (parameters.map { ["-p", $0] } ?? [])
        // Under setpriv where installed, as the bus itself: it dies with the test process.
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let log = bus.directory + "/dbusmock-\(busName).log"
        let process = try await ChildProcess.launch(setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + mockCommand } ?? mockCommand,
                                                    environment: environment, output: .appendingToFile(log))
        let mock = DBusMock(busName: busName, process: process)
        do {
            try await withTimeout("\(busName) to appear on the bus") {
                for await signal in owners where signal.arguments.count == 3 && signal.arguments[2].stringValue?.isEmpty == false {
                    return
                }
                throw TimedOut(what: "\(busName) (the bus connection ended)")
            }
        } catch {
            await mock.stop()
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw MockStartFailure(message: "dbusmock \(template) did not start: \(error)\n\(output)")
        }
        return mock
    }

    /// Stops it (SIGTERM to its pid) and waits until it has exited: its name leaves the bus.
    func stop() async {
        guard let process = process.withLock({ process in defer { process = nil }; return process }) else { return }
        process.signal(SIGTERM)
        _ = await process.completion(within: nil)
    }

    /// A mock released without ``stop()`` is killed (no waiting).
    deinit {
        process.withLock { $0 }?.signal(SIGKILL)
    }

    /// The mock did not start.
    struct MockStartFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
