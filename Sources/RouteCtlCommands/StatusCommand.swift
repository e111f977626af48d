import ArgumentParser
import AudioContext
import FoundationEssentials
import PulseAudio
import RouteKit
import RouteKitDBus
import RouteKitDaemon
import TextSupport

/// `routectl status`: which server, where audio goes and why, the preferences, call audio.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where audio goes and why: the server, the output and input in use, the preferences, call audio.",
        discussion: """
            Tells PulseAudio from PipeWire (pipewire-pulse), names the default sink and \
            source, the device audio goes to and the one recorded from, why (the daemon's \
            preference, a device chosen with 'routectl use', or the server's own default when \
            no daemon runs), the preferences and where they come from, whether call audio is \
            on and the microphone muted.

              routectl status
              routectl status --json | jq -r .output.id

            With --json, prints one JSON object; its keys are in Docs/CommandLine.md.
            """)

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print JSON for scripts instead of text.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let environment = ProcessInfo.processInfo.environment
            let daemon: (any RoutingControl)?
            switch await DaemonLocator.locate(environment: environment) {
            case .daemon(let control): daemon = control
            case .unanswered(let why): throw RouteCtlFailure.daemonUnanswered(why)
            case .notRunning, .noSessionBus: daemon = nil
            }
            let (snapshot, routing) = try await server.withClient { client in
                let snapshot = try await ServerSnapshot.read(from: client)
                guard let daemon else {
                    return (snapshot, try await DirectRoutingControl(client: client, environment: environment).status())
                }
                var routing = try await daemon.status()
                // The daemon's records carry no card, ports or profiles: the server's own view
                // of the same device does, when both look at the same server.
                if let id = routing.output?.id, let device = try await ServerView.read(from: client).device(id) {
                    routing.output = device
                }
                return (snapshot, routing)
            }
            print(json ? try JSONOutput.encode(JSONOutput.status(snapshot, routing: routing)) : Self.text(snapshot, routing: routing))
        }
    }

    static func text(_ snapshot: ServerSnapshot, routing: RoutingStatus) -> String {
        let info = snapshot.info
        let implementation = switch info.implementation {
        case .pipewire: "PipeWire \(info.pipeWireVersion ?? "") (pipewire-pulse)"
        case .pulseaudio: "PulseAudio \(info.serverVersion)"
        case .other: "\(info.serverName) \(info.serverVersion)"
        }
        func describe(_ name: String?, _ description: String?) -> String {
            guard let name else { return "none" }
            return description.map { "\(name) (\($0))" } ?? name
        }
        let defaultSink = describe(info.defaultSinkName,
                                   snapshot.sinks.first { $0.name == info.defaultSinkName }?.description)
        let defaultSource = describe(info.defaultSourceName,
                                     snapshot.sources.first { $0.name == info.defaultSourceName }?.description)
        let output = routing.output.map { "\(RouteEventLine.named($0)), \($0.kind)" } ?? "none"
        let input = routing.inputSource.map { source in
            TerminalText.escaped(source) + (routing.inputDevice.map { " (of \(RouteEventLine.named($0)))" } ?? "")
        } ?? "none"
        let preferences = routing.preferences.isEmpty ? "none"
            : TerminalText.escaped(routing.preferences.joined(separator: ", ")) + " (\(routing.preferencesOrigin.phrase)"
                + (routing.answerer == .daemon ? ")" : "; used when the daemon runs)")
        let microphone = routing.isMicrophoneMuted.map { $0 ? "muted" : "on" } ?? "none"
        var lines = [
            "Server:          " + TerminalText.escaped("\(implementation) at \(snapshot.address)"),
            "Default sink:    " + TerminalText.escaped(defaultSink),
            "Default source:  " + TerminalText.escaped(defaultSource),
            "Devices:         \(snapshot.sinks.count) sinks, \(snapshot.sources.count) sources, \(snapshot.cards.count) cards",
            "Streams:         \(snapshot.sinkInputCount) playing, \(snapshot.sourceOutputCount) recording",
            "Output:          " + output,
            "Input:           " + input,
            "Why:             " + routing.why,
            "Preferences:     " + preferences,
        ]
        if let selection = routing.selection { lines.append("Chosen by hand:  " + TerminalText.escaped(selection)) }
        let silent = SilentMode(defaultSinkName: info.defaultSinkName, sinks: snapshot.sinks)
        lines += [
            "Call audio:      " + (routing.isCallAudioOn ? "on" : "off"),
            "Microphone:      " + microphone,
            "Silent mode:     " + TerminalText.escaped(silent.description),
            "Screen:          " + (routing.context.map { context in
                context.screenLock.rawValue + (context.idle == .unknown ? "" : ", \(context.idle.rawValue)")
            } ?? "asked of the daemon"),
        ]
        if let context = routing.context {
            if !context.pausedPlayers.isEmpty {
                lines.append("Paused players:  " + TerminalText.escaped(context.pausedPlayers.joined(separator: ", ")))
            }
            if context.volumeCapture { lines.append("Volume buttons:  captured") }
        }
        lines += [
            "Daemon:          " + (routing.answerer == .daemon
                                       ? "running" + (routing.daemonProcessID.map { " (pid \($0))" } ?? "") : "not running"),
        ]
        return lines.joined(separator: "\n")
    }
}
