import DBus
import Logging

/// Follows one screensaver service on the session bus: `GetActive` when its name has an owner,
/// then `ActiveChanged` from that owner; it may appear, go and come back at any time. Reports
/// each answer (nil: it does not answer) through `report`; returns when the connection ends or
/// the calling task is cancelled.
struct ScreenSaverWatcher: Sendable {
    let connection: BusConnection
    let service: ScreenSaverService
    let logger: Logger
    let report: @Sendable (SourceAnswer?) -> Void

    func run() async {
        do {
            let owners = try await connection.signals(matching: MatchRules.ownerChanges(of: service.busName),
                                                         filter: MatchRules.Filters.ownerChanges)
            let owner = try await connection.owner(of: service.busName)
            await followOwner(of: service.busName, changes: owners, startingWith: owner,
                              attach: { owner in await attach(to: owner) },
                              vanished: { report(nil) })
        } catch {
            logger.warning("cannot follow \(service)", metadata: ["error": "\(error)"])
        }
        report(nil)
    }

    private func attach(to owner: String) async {
        do {
            // Subscribed before reading, so that no change after the read is lost.
            let changes = try await connection.signals(matching: MatchRules.activeChanged(of: service, from: owner),
                                                          filter: MatchRules.Filters.activeChanged(from: owner))
            let read = try await connection.call(BusCall(destination: service.busName, path: service.path,
                                                         interface: service.interface, member: "GetActive",
                                                         timeout: .seconds(10)))
            guard let active = read.first?.boolValue else { throw BusError.failed("GetActive answered \(read)") }
            logger.info("following screensaver", metadata: ["service": "\(service)", "active": "\(active)"])
            report(answer(active))
            for await signal in changes {
                guard signal.sender == owner, signal.arguments.count == 1, let active = signal.arguments[0].boolValue
                else { continue }
                report(answer(active))
            }
        } catch {
            // Owned but not served here (KDE serves one of the two freedesktop paths), or broken.
            logger.debug("\(service) does not answer", metadata: ["error": "\(error)"])
            report(nil)
        }
    }

    private func answer(_ active: Bool) -> SourceAnswer {
        SourceAnswer(source: .screenSaver(service), locked: active, idle: nil)
    }
}
