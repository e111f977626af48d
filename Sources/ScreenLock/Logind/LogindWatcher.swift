import DBus
import Logging

/// Follows logind's session on the system bus: finds the session, reads `LockedHint` and
/// `IdleHint`, follows their `PropertiesChanged` on the session's real path, and starts over
/// when logind goes and comes back. Reports each answer (nil: logind does not answer) through
/// `report`; returns when the connection ends or the calling task is cancelled.
struct LogindWatcher: Sendable {
    let connection: BusConnection
    /// The lookups to try, in order.
    let lookups: [SessionLookup]
    let logger: Logger
    let report: @Sendable (SourceAnswer?) -> Void

    func run() async {
        do {
            // Subscribed before asking who owns the name, so that no change in between is lost.
            let owners = try await connection.signals(matching: MatchRules.ownerChanges(of: LogindCalls.busName),
                                                         filter: MatchRules.Filters.ownerChanges)
            let owner = try await connection.owner(of: LogindCalls.busName)
            if owner == nil { logger.info("logind is not on the system bus; waiting for it") }
            await followOwner(of: LogindCalls.busName, changes: owners, startingWith: owner,
                              attach: { owner in await attach(to: owner) },
                              vanished: {
                                  logger.info("logind left the system bus")
                                  report(nil)
                              })
        } catch {
            logger.warning("cannot follow logind", metadata: ["error": "\(error)"])
        }
        report(nil)
    }

    /// Finds the session through the first lookup that gives one whose hints can be read, and
    /// follows it while `owner` owns logind's name.
    private func attach(to owner: String) async {
        for lookup in lookups {
            guard !Task.isCancelled else { return }
            do {
                try await follow(by: lookup, owner: owner)
                return
            } catch {
                logger.debug("no logind session by \(lookup)", metadata: ["error": "\(error)"])
            }
        }
        logger.warning("logind answers, but no session was found",
                       metadata: ["tried": "\(lookups.map(\.description).joined(separator: ", "))"])
        report(nil)
    }

    /// Throws when `lookup` gives no session or its hints cannot be read; otherwise follows the
    /// session until cancelled or the connection ends.
    private func follow(by lookup: SessionLookup, owner: String) async throws {
        let answer = try await connection.call(LogindCalls.session(by: lookup))
        guard let path = answer.first?.stringValue else { throw BusError.failed("\(lookup) answered \(answer)") }
        // Subscribed before reading, so that no change after the read is lost.
        let changes = try await connection.signals(matching: MatchRules.propertiesChanged(at: path, from: owner),
                                                      filter: MatchRules.Filters.propertiesChanged(from: owner))
        let read = try await connection.call(LogindCalls.allProperties(at: path))
        guard let properties = read.first?.variantDictionaryValue else { throw BusError.failed("GetAll answered \(read)") }
        var hints = SessionHints(properties: properties)
        guard hints.locked != nil else { throw BusError.failed("the session at \(path) has no LockedHint") }
        let id = properties["Id"]?.stringValue ?? String(path.split(separator: "/").last ?? "")
        let session = LogindSession(id: id, path: path, lookup: lookup)
        logger.info("following logind session", metadata: ["session": "\(session)"])
        report(hints.answer(for: session))
        // Changes announced before the read's answer are still queued and applied after it:
        // they are no newer than what was read, so at worst the state passes through an older
        // value once on the way to the one the later announcements end at.
        for await signal in changes {
            // Only logind's own announcements count, and only for the session's interface.
            guard signal.sender == owner, let change = PropertiesChange(signal) else { continue }
            for name in hints.apply(change) {
                let value = try? await connection.call(LogindCalls.property(name, at: path)).first?.unwrappingVariant
                hints.set(name, to: value)
            }
            report(hints.answer(for: session))
        }
    }
}
