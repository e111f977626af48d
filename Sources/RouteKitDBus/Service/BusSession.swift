import DBus
import Logging
import RouteKit

/// One connection to the session bus, with RouteKit's objects exported on it and the names it
/// owns: what the daemon serves until the connection ends.
public final class BusSession: Sendable {
    /// The connection.
    let connection: BusConnection
    /// `io.github.routekit.RouteKit1`, when this session owns its name.
    let routeKit: ExportedObject?
    /// `org.mobian_project.CallAudio`, when asked for and this session owns its name.
    let callAudio: ExportedObject?
    /// RouteKit1's `Status`, answered on the bus's thread once the engine has read the server.
    let status: StatusAnswer
    /// Where the daemon's lines go.
    let report: @Sendable (String) -> Void

    private init(connection: BusConnection, routeKit: ExportedObject?, callAudio: ExportedObject?, status: StatusAnswer,
                 report: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.status = status
        self.routeKit = routeKit
        self.callAudio = callAudio
        self.report = report
    }

    /// The bus names this session owns.
    public var names: [String] {
        [routeKit.map { _ in RouteKitInterface.name }, callAudio.map { _ in CallAudioInterface.name }].compactMap { $0 }
    }

    /// Where it is connected.
    public var address: BusAddress { connection.address }

    /// `dbus: serving ... on ...`, for the daemon's lines.
    public var servingLine: String {
        "dbus: serving \(names.isEmpty ? "nothing" : names.joined(separator: " and ")) on \(connection.address)"
    }

    /// Connects, exports the objects (before the names, so that a client that sees a name
    /// finds its object), and requests the names. `strict`: a name owned by another process
    /// fails the whole claim (``RouteKitBusError/nameTaken(name:owner:)``), as at start;
    /// otherwise the object is withdrawn and `report` says so, as after a reconnection.
    static func claim(address: BusAddress, servesCallAudio: Bool, driver: EngineDriver, strict: Bool,
                      report: @escaping @Sendable (String) -> Void, logger: Logger) async throws(RouteKitBusError) -> BusSession {
        let connection: BusConnection
        do {
            connection = try await BusConnection.open(address, logger: logger)
        } catch {
            throw .noBus(address: address.resolved ?? "(none: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)",
                         reason: error.message)
        }
        do {
            let state = driver.manager.state
            let muted = await driver.isMicrophoneMuted()
            // One bound for both objects: a client's calls to either count together.
            let callsInFlight = RouteKitLimits.callsInFlight()
            let status = StatusAnswer(driver: driver, microphoneMuted: muted)
            var routeKit: ExportedObject? = try await connection.export(
                RouteKitInterface.interface, at: RouteKitInterface.path,
                properties: RouteKitProperties.status(state, microphoneMuted: muted)
                    .merging(ContextProperties.values(for: driver.context.snapshot)) { $1 },
                callsInFlight: callsInFlight, directAnswers: ["Status": status.direct])
            var callAudio: ExportedObject? = servesCallAudio ? try await connection.export(
                CallAudioInterface.interface, at: CallAudioInterface.path,
                properties: CallAudioProperties.all(state, microphoneMuted: muted), callsInFlight: callsInFlight) : nil
            for (name, object) in [(RouteKitInterface.name, routeKit), (CallAudioInterface.name, callAudio)] {
                guard let object else { continue }
                // After a reconnection the name may have been taken meanwhile (a client's call
                // activating callaudiod): it is taken back from an owner that allows it, or
                // queued for, and served as soon as that owner leaves.
                switch try await connection.requestName(name, queueing: !strict) {
                case .primaryOwner, .alreadyOwner: continue
                case .queued:
                    let owner = await BusOwnerDescription.describe(ownerOf: name, on: connection) ?? "another process"
                    report("dbus: \(name) is owned by \(owner); RouteKit serves it as soon as that one leaves")
                case .taken:
                    let taken = RouteKitBusError.nameTaken(
                        name: name, owner: await BusOwnerDescription.describe(ownerOf: name, on: connection))
                    if strict {
                        await connection.close()
                        throw taken
                    }
                    report("dbus: \(taken)")
                    object.remove()
                    if name == RouteKitInterface.name { routeKit = nil } else { callAudio = nil }
                }
            }
            return BusSession(connection: connection, routeKit: routeKit, callAudio: callAudio, status: status, report: report)
        } catch let error as RouteKitBusError {
            throw error
        } catch {
            // The bus went away while exporting or asking for a name.
            await connection.close()
            throw .noBus(address: address.resolved ?? "", reason: "\(error)")
        }
    }

    /// Answers calls and keeps properties and signals current until the connection ends
    /// (its outcome) or the task is cancelled (nil).
    func serve(_ driver: EngineDriver, logger: Logger) async -> BusDisconnection? {
        let publisher = StatePublisher(routeKit: routeKit, callAudio: callAudio, status: status, driver: driver)
        let clients = BusClients(connection: connection, report: report)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await clients.follow(driver: driver) }
            if let routeKit {
                group.addTask {
                    await withDiscardingTaskGroup { calls in
                        for await call in routeKit.calls {
                            calls.addTask { await RouteKitCallHandler.answer(call, driver: driver, publisher: publisher, clients: clients) }
                        }
                    }
                }
            }
            if let callAudio {
                group.addTask {
                    await withDiscardingTaskGroup { calls in
                        for await call in callAudio.calls {
                            calls.addTask { await CallAudioCallHandler.answer(call, driver: driver, publisher: publisher) }
                        }
                    }
                }
            }
            group.addTask { await publisher.answerStatusDirectly() }
            group.addTask { await publisher.followEngine() }
            group.addTask { await publisher.followMicrophone() }
            group.addTask { await publisher.followContext(driver.context) }
            let outcome = await connection.disconnection()
            group.cancelAll()
            return outcome
        }
    }

    /// Closes the connection, which releases the names.
    func close() async {
        await connection.close()
    }
}
