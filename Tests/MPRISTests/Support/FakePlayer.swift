import DBus
import Foundation
import Glibc
import ProcessRunner
import Synchronization
import TestSupport

/// A fake MPRIS player on a private bus: python3-dbusmock with the repository's template
/// (`Tests/MPRISTests/Resources/mpris_player.py`), started through the process runner (under
/// `setpriv --pdeathsig KILL` where installed, which execs, so the pid is python's own) and
/// ready once the template has taken the player's name and printed "ready". Stopped by its
/// own pid.
final class FakePlayer: Sendable {
    /// How it misbehaves.
    enum Fault: String, Sendable {
        case none = ""
        case noPlayerInterface = "no-player-interface"
        case wrongTypes = "wrong-types"
        case refuses
    }

    /// Its bus name: `org.mpris.MediaPlayer2.NAME`.
    let name: String
    /// The pid of the process that owns the name.
    let processID: UInt32
    private let process: ChildProcess

    /// The template, found from this file's place in the checkout.
    static let template = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // MPRISTests
        .appendingPathComponent("Resources/mpris_player.py").path

    private init(name: String, process: ChildProcess) {
        self.name = name
        self.processID = UInt32(process.pid)
        self.process = process
    }

    /// Starts `org.mpris.MediaPlayer2.<name>` on `bus`, returning once it owns the name.
    static func start(on bus: PrivateSessionBus, name: String, identity: String = "Fake Player",
                      status: String = "Playing", canPause: Bool = true, fault: Fault = .none) async throws -> FakePlayer {
        let parameters: [String: Any] = ["name": name, "identity": identity, "status": status,
                                         "can_pause": canPause, "fault": fault.rawValue]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys]),
                          as: UTF8.self)
        let command = ["/usr/bin/python3", "-m", "dbusmock", "--session", "--template", template, "-p", json]
        let setpriv = ExecutableSearch.find("setpriv", in: ["/usr/bin", "/bin", "/usr/sbin", "/sbin"])
        let (lines, printed) = AsyncStream.makeStream(of: String.self)
        let output = OutputLines()
        let process = try await ChildProcess.launch(
            setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + command } ?? command,
            environment: bus.environment,
            output: .lines(onLine: { _, line in
                output.append(line)
                printed.yield(line)
            }, onEnd: { printed.finish() }))
        let player = FakePlayer(name: "org.mpris.MediaPlayer2.\(name)", process: process)
        let ready = try await withTimeout("the fake player \(name) to take its name", .seconds(30)) {
            for await line in lines where line == "ready" { return true }
            return false
        }
        guard ready else {
            player.stop()
            throw FakePlayerFailure(message: "dbusmock did not start: " + output.text)
        }
        return player
    }

    /// The methods of the player interface it has been called with, in order (dbusmock's
    /// call log, through `org.freedesktop.DBus.Mock.GetCalls`).
    func calls(through connection: BusConnection) async throws -> [String] {
        let answer = try await connection.call(BusCall(
            destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Mock",
            member: "GetCalls", timeout: .seconds(10)))
        return (answer.first?.arrayValue ?? []).compactMap { call in
            guard case .structure(let fields) = call, fields.count == 3 else { return nil }
            return fields[1].stringValue
        }.filter { $0 != "InvalidateStatus" }
    }

    /// Sets `PlaybackStatus` as the player's own controls would: it announces the new value.
    func setStatus(_ status: String, through connection: BusConnection) async throws {
        _ = try await connection.call(BusCall(
            destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
            member: "Set", arguments: [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus"),
                                       .variant(.string(status))], timeout: .seconds(10)))
    }

    /// Sets `PlaybackStatus` and announces only that it changed (`invalidated_properties`).
    func invalidateStatus(_ status: String, through connection: BusConnection) async throws {
        _ = try await connection.call(BusCall(
            destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.routekit.Test.MPRISMock",
            member: "InvalidateStatus", arguments: [.string(status)], timeout: .seconds(10)))
    }

    /// Stops the process (`SIGSTOP`): it holds its name and answers nothing.
    func freeze() { process.signal(SIGSTOP) }

    /// Lets a frozen process go on (`SIGCONT`).
    func thaw() { process.signal(SIGCONT) }

    /// Kills it (`SIGKILL`); its name goes when the bus sees the connection close.
    func stop() {
        process.signal(SIGKILL)
    }

    deinit { stop() }
}

/// A fake player did not start.
struct FakePlayerFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
