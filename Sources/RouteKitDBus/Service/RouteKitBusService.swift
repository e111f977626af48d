import DBus
import Logging
import RouteKit
import ServiceLifecycle

/// The daemon's D-Bus API as a swift-service-lifecycle `Service`: RouteKit1 (and, when asked,
/// callaudiod's interface) on the session bus, driving an ``AudioDeviceManager``.
///
/// ```swift
/// let driver = EngineDriver(manager: manager, microphone: SourceMuteReader(client: client))
/// let session = try await RouteKitBusService.claim(configuration, driver: driver)  // names refused: throws
/// let bus = RouteKitBusService(driver: driver, configuration: configuration, session: session)
/// // ServiceGroup(services: [bus, routing]): routing shuts down first, and the API reports its last route.
/// ```
///
/// It survives the bus going away: routing goes on, a line says so, and it connects again
/// when the bus is back. While the bus's socket file is gone it waits for it with inotify
/// (no wake-ups); a socket that is there but refuses, or an abstract one, is tried again after
/// 0.1 s, doubling up to ``Configuration/maximumRetryDelay``. Nothing runs while the bus is
/// there and idle. On graceful shutdown it closes the connection, which releases the names.
public struct RouteKitBusService: Service {
    /// What to serve, and where.
    public struct Configuration: Sendable {
        /// The bus: the session bus unless told otherwise.
        public var address: BusAddress
        /// Whether to answer for callaudiod (`org.mobian_project.CallAudio`) too.
        public var servesCallAudio: Bool
        /// The longest wait between two attempts to reach a bus that went away.
        public var maximumRetryDelay: Duration

        /// A configuration from its parts.
        public init(address: BusAddress = .session, servesCallAudio: Bool = false, maximumRetryDelay: Duration = .seconds(5)) {
            self.address = address
            self.servesCallAudio = servesCallAudio
            self.maximumRetryDelay = maximumRetryDelay
        }
    }

    let driver: EngineDriver
    let configuration: Configuration
    let initialSession: BusSession?
    let report: @Sendable (String) -> Void
    let logger: Logger

    /// A service that serves `session` (from ``claim(_:driver:logger:)``), or, when it is nil,
    /// connects once the bus is there. `report` gets a line when the bus goes and comes back.
    public init(driver: EngineDriver, configuration: Configuration, session: BusSession?,
                report: @escaping @Sendable (String) -> Void, logger: Logger = Logger(label: "routekit.dbus")) {
        self.driver = driver
        self.configuration = configuration
        self.initialSession = session
        self.report = report
        self.logger = logger
    }

    /// Connects, exports and takes the names, before the engine starts. Throws
    /// ``RouteKitBusError/nameTaken(name:owner:)`` when another process owns one (another
    /// daemon, or callaudiod), and ``RouteKitBusError/noBus(address:reason:)`` when no bus answers.
    /// `report` gets a line when a client that held a call or volume capture goes.
    public static func claim(_ configuration: Configuration, driver: EngineDriver,
                             report: @escaping @Sendable (String) -> Void = { _ in },
                             logger: Logger = Logger(label: "routekit.dbus")) async throws(RouteKitBusError) -> BusSession {
        try await BusSession.claim(address: configuration.address, servesCallAudio: configuration.servesCallAudio,
                                   driver: driver, strict: true, report: report, logger: logger)
    }

    /// Serves until graceful shutdown, reconnecting whenever the bus comes back.
    public func run() async throws {
        guard configuration.address.resolved != nil else {
            // Nothing to connect to, ever: wait for the end.
            try? await gracefulShutdown()
            return
        }
        let held = SessionHolder(initialSession)
        await cancelWhenGracefulShutdown {
            await serveAndReconnect(held)
        }
        await held.take()?.close()
    }

    private func serveAndReconnect(_ held: SessionHolder) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            guard let session = held.current else {
                do {
                    held.set(try await BusSession.claim(address: configuration.address, servesCallAudio: configuration.servesCallAudio,
                                                        driver: driver, strict: false, report: report, logger: logger))
                    report((held.current?.servingLine ?? "dbus: serving") + " again")
                    delay = .milliseconds(100)
                } catch {
                    logger.debug("the bus is not back yet", metadata: ["reason": "\(error)"])
                    do { delay = try await waitForTheBus(after: delay) } catch { return }
                }
                continue
            }
            let outcome = await session.serve(driver, logger: logger)
            guard case .lost(let error)? = outcome else { return }
            await held.take()?.close()
            report("dbus: lost the session bus (\(error.message)); routing goes on, and the API comes back with the bus")
        }
    }

    /// Waits before the next attempt to reach the bus, and returns the wait after that. A bus
    /// on a socket file whose file is gone is waited for with inotify, which costs nothing
    /// until the file is back; otherwise (a file that refuses, an abstract socket) it sleeps
    /// `delay`, doubling up to ``Configuration/maximumRetryDelay``. Throws when cancelled.
    private func waitForTheBus(after delay: Duration) async throws -> Duration {
        if let socket = configuration.address.socketPath, try await SocketWatch.waitUntilPresent(socket) == .appeared {
            return .milliseconds(100)
        }
        try await Task.sleep(for: delay)
        return min(delay * 2, configuration.maximumRetryDelay)
    }
}
