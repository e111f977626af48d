import ConcurrencySupport
import PulseAudio
import RouteKit

/// Reads the mute of the source the engine records from, as the server shows it, so that the
/// D-Bus properties (`MicMuted`, callaudiod's `MicState`) say what is true, not what was asked.
/// The engine itself mutes and unmutes (``AudioDeviceManager/setMicrophoneMuted(_:)``).
public protocol MicrophoneControl: Sendable {
    /// Whether `source` is muted now; nil when it is not there or cannot be read.
    func isMuted(_ source: String) async -> Bool?
    /// A wake-up each time a source or the server may have changed, until cancelled.
    func changes() -> AsyncStream<Void>
}

/// ``MicrophoneControl`` over a `PulseClient` whose subscription includes sources and the
/// server (`SubscriptionMask.devices` does).
public struct SourceMuteReader: MicrophoneControl {
    let client: PulseClient

    /// Sources of `client`'s server.
    public init(client: PulseClient) {
        self.client = client
    }

    /// How long a reading may take: a frozen server (SIGSTOP) answers nothing, and `Status`
    /// and the properties it feeds must answer all the same (the mute then unknown).
    public static let readTimeout: Duration = .milliseconds(500)

    /// Reads the source, within ``readTimeout``.
    public func isMuted(_ source: String) async -> Bool? {
        let client = client
        return await untilDeadline(.now + Self.readTimeout) { try await client.source(named: source)?.isMuted } ?? nil
    }

    /// Source and server events, and the connection coming back, straight from the client's
    /// event thread; a burst that comes before the reader wakes is one wake-up.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = client.observeEvents { event in
            switch event {
            case nil: continuation.finish()
            case .subscription(let change)? where change.facility == .source || change.facility == .server:
                continuation.yield()
            case .connectionStateChanged(.ready)?: continuation.yield()
            default: break
            }
        }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
