import PulseAudio
import RouteKit

/// A server whose sources can be muted: what `routectl mic` needs beyond ``AudioServer``
/// (the engine does not route mute). `PulseClient` is one; so is the simulated server.
protocol SourceMutingServer: AudioServer {
    /// Mutes or unmutes the source `source`.
    func setSourceMute(_ source: String, muted: Bool) async throws
}

extension PulseClient: SourceMutingServer {}

/// Muting the microphone: the default source, as callaudiod's `MuteMic` does.
enum MicrophoneMute {
    /// Mutes or unmutes the default source and waits until the server shows it; returns the
    /// source's name. Throws ``RouteCtlFailure/noSuchDevice(_:)`` when there is no default
    /// source but a monitor, and `PulseError` when the server refuses.
    static func set(_ isMuted: Bool, on server: any SourceMutingServer) async throws -> String {
        let events = server.events()
        let view = try await ServerView.read(from: server)
        guard let source = view.defaultSource else {
            throw RouteCtlFailure.noSuchDevice("there is no microphone: the server's default source is "
                                               + (view.info.defaultSourceName.map { "\($0), a monitor" } ?? "unset"))
        }
        try await server.setSourceMute(source.name, muted: isMuted)
        let name = source.name
        let shown = try await ServerWaiting.view(on: server, events: events) { view in
            view.sources.first { $0.name == name }?.isMuted == isMuted
        }
        guard shown != nil else {
            throw PulseError(.timeout, operation: "\(isMuted ? "mute" : "unmute") \(name)",
                             reason: "the server still shows it \(isMuted ? "unmuted" : "muted")")
        }
        return name
    }
}
