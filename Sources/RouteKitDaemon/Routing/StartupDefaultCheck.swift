import Logging
import PipeWireDefaults
import RouteKit
import ServiceLifecycle

/// On PipeWire, twice in the daemon's first seconds: the default sink as a client connecting
/// now reads it (WirePlumber's "default" metadata, through `pw-metadata`), handed to the
/// manager, which renews its connection and decides again when its own view differs
/// (``AudioDeviceManager/reconcileDefaultSink(seenElsewhere:)``).
///
/// pipewire-pulse's copy of the graph misses a change of the default made while another
/// client connects, and keeps the old one until the next change (Docs/Reliability.md, "The
/// PipeWire default that never reaches long-lived connections"). At login the daemon starts
/// beside WirePlumber, which restores the user's default, and beside every other starting
/// client: the one moment users would meet it. Later misses are left to the next change and
/// to the renewal a late confirmation brings: every renewal is a moment in which the media
/// guard can miss a removal, so none is made without a difference seen.
///
/// The checks and `pw-metadata`'s time limit end within the daemon's first 6 s, after which
/// an idle daemon wakes for nothing (`DaemonIdleTests`).
package struct StartupDefaultCheck: Service {
    /// When to look, counted from the service's start.
    package static let checks: [Duration] = [.milliseconds(1_500), .seconds(4)]
    /// How long one `pw-metadata` may take.
    package static let readLimit = Duration.milliseconds(1_500)

    package let manager: AudioDeviceManager
    /// The default sink another client reads now; nil when none is set.
    package let readDefaultSink: @Sendable () async throws -> String?
    package var checks: [Duration] = Self.checks
    package let logger: Logger

    /// The check for `reader`'s PipeWire, its `pw-metadata` bounded by ``readLimit``.
    package init(manager: AudioDeviceManager, reader: PipeWireConfiguredDefaults, logger: Logger) {
        var reader = reader
        reader.timeout = Self.readLimit
        self.init(manager: manager, readDefaultSink: { [reader] in try await reader.effectiveDefaults().sink }, logger: logger)
    }

    package init(manager: AudioDeviceManager, readDefaultSink: @escaping @Sendable () async throws -> String?,
         checks: [Duration] = Self.checks, logger: Logger) {
        self.manager = manager
        self.readDefaultSink = readDefaultSink
        self.checks = checks
        self.logger = logger
    }

    /// Runs the checks, then waits for graceful shutdown: a service of the daemon's group that
    /// returns early ends the whole daemon.
    package func run() async throws {
        let start = ContinuousClock.now
        await cancelWhenGracefulShutdown {
            for check in checks {
                do {
                    try await Task.sleep(until: start + check)
                } catch {
                    return
                }
                await checkOnce()
            }
        }
        try? await gracefulShutdown()
    }

    private func checkOnce() async {
        let sink: String?
        do {
            sink = try await readDefaultSink()
        } catch is CancellationError {
            return
        } catch {
            logger.debug("could not read PipeWire's default sink to check the connection's view", metadata: ["error": "\(error)"])
            return
        }
        guard let sink else { return }
        await manager.reconcileDefaultSink(seenElsewhere: sink)
    }
}
