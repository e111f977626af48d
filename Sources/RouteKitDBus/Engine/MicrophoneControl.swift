import PulseAudio

/// The microphone the D-Bus APIs mute: the server's default source. The engine does not
/// route mute, so the daemon reads and sets it beside the engine.
public protocol MicrophoneControl: Sendable {
    /// Whether the default source is muted now; nil when there is none or it cannot be read.
    func isMuted() async -> Bool?
    /// Mutes or unmutes the default source. Throws `PulseError` when the server refuses.
    func setMuted(_ muted: Bool) async throws
    /// A wake-up each time the default source or its mute may have changed, until cancelled.
    func changes() -> AsyncStream<Void>
}

/// ``MicrophoneControl`` over a `PulseClient` whose subscription includes sources and the
/// server (`SubscriptionMask.devices` does).
public struct DefaultSourceMicrophone: MicrophoneControl {
    let client: PulseClient

    /// The default source of `client`'s server.
    public init(client: PulseClient) {
        self.client = client
    }

    /// Reads the default source's name, then the source.
    public func isMuted() async -> Bool? {
        guard let name = try? await client.serverInfo().defaultSourceName,
              let source = try? await client.source(named: name) else { return nil }
        return source.isMuted
    }

    /// Sets the default source's mute.
    public func setMuted(_ muted: Bool) async throws {
        guard let name = try await client.serverInfo().defaultSourceName else {
            throw PulseError(.noSuchEntity, operation: "mute the default source", reason: "the server has no default source")
        }
        try await client.setSourceMute(name, muted: muted)
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
