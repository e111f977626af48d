import ConcurrencySupport
import Logging
import PulseAudio

/// Keeps a connection that has no engine of its own current with the server's defaults on
/// pipewire-pulse.
///
/// A pipewire-pulse connection can miss a change of the default for good while other clients
/// come and go (Docs/Reliability.md, "The PipeWire default that never reaches long-lived
/// connections"). An ``AudioDeviceManager`` heals its connection, and whatever shares it;
/// a program that follows the default on a connection of its own (volume capture in
/// `routectl volume-keys`, a bare `PulseClient` under `VolumeButtonCapture` or
/// `SilentModeMonitor`) runs a healer beside it. Once clients have stopped coming and going
/// (the engine's rule: 300 ms of quiet, at most a second after the first), the healer reads the
/// defaults on a new connection; when they differ from what the connection answers, and no
/// change of them was heard meanwhile, it renews the connection
/// (``AudioServer/renewConnection()``), whose followers are then told of a change of the
/// server and read the defaults again. Its own reading's client starts no other check.
///
/// The connection must follow clients (``SubscriptionMask/clients``) besides the server. On
/// PulseAudio there is nothing to heal: run it on pipewire-pulse only.
///
/// ```swift
/// let client = PulseClient(configuration: .init(subscription: [.devices, .clients]))
/// try await client.connect()
/// let healer = MissedDefaultHealer(server: client)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await healer.run() }
///     group.addTask { try await followTheDefault(on: client) }
/// }
/// ```
public struct MissedDefaultHealer: Sendable {
    let server: any AudioServer
    let logger: Logger
    /// The connection's events from the healer's making on: clients that come and go before
    /// ``run()`` starts count too.
    private let events: AsyncStream<PulseEvent>

    /// A healer for `server`'s connection, following its events from now on; nothing is read
    /// until ``run()``.
    public init(server: any AudioServer, logger: Logger = Logger(label: "routekit.default-healer")) {
        self.server = server
        self.logger = logger
        self.events = server.events()
    }

    /// Follows the connection's events and heals it, until the task is cancelled or the
    /// events end (the connection shut down). Run it once.
    public func run() async {
        let queue = InputQueue<PulseEvent>()
        let events = self.events
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await event in events { queue.push(event) }
                queue.finish()
            }
            var check = MissedDefaultCheck()
            while !Task.isCancelled {
                guard let events = await queue.nextBatch(until: check.due) else { break }
                _ = Self.note(events, in: &check)
                if check.isDue(now: .now) { await read(checking: &check, queue: queue) }
            }
            group.cancelAll()
        }
    }

    /// Notes the clients that came and went; returns whether the defaults changed among
    /// `events` (a change of the server).
    private static func note(_ events: [PulseEvent], in check: inout MissedDefaultCheck) -> Bool {
        var defaultsChanged = false
        for case .subscription(let event) in events {
            switch event.facility {
            case .client: check.clientEvent(event, now: .now)
            case .server: defaultsChanged = true
            default: break
            }
        }
        return defaultsChanged
    }

    /// Reads the defaults on a new connection and renews this one if it shows others.
    private func read(checking check: inout MissedDefaultCheck, queue: InputQueue<PulseEvent>) async {
        check.started()
        let reading: NewConnectionReading
        do {
            reading = try await server.serverInfoOnNewConnection()
        } catch {
            logger.debug("could not read the defaults on a new connection", metadata: ["error": "\(error)"])
            return
        }
        if let client = reading.clientIndex { check.readBy(client: client) }
        // What came meanwhile: a change of the defaults heard here says itself, and the
        // reading may predate it.
        let meanwhile = await queue.nextBatch(until: .now) ?? []
        guard !Self.note(meanwhile, in: &check), let here = try? await server.serverInfo() else { return }
        let missed = here.defaultSinkName != reading.info.defaultSinkName || here.defaultSourceName != reading.info.defaultSourceName
        logger.debug("read the defaults on a new connection", metadata: [
            "sink": "\(reading.info.defaultSinkName ?? "none")", "missed": "\(missed)",
        ])
        guard missed else { return }
        logger.notice("the server's connection had missed a change of the default; renewing it", metadata: [
            "was": "\(here.defaultSinkName ?? "none")", "is": "\(reading.info.defaultSinkName ?? "none")",
        ])
        do {
            try await server.renewConnection()
        } catch {
            logger.warning("could not renew the server's connection", metadata: ["error": "\(error)"])
        }
    }
}
