import ArgumentParser
import PulseAudio

/// `routectl status`: which server, and where audio goes by default.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sound server and its default sink and source.",
        discussion: "Tells PulseAudio from PipeWire (pipewire-pulse). With --json, prints one JSON object.")

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print JSON for scripts instead of text.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let snapshot = try await server.withClient(ServerSnapshot.read)
            print(json ? try JSONOutput.encode(JSONOutput.status(snapshot)) : Self.text(snapshot))
        }
    }

    static func text(_ snapshot: ServerSnapshot) -> String {
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
        return """
            Server:          \(TerminalText.escaped("\(implementation) at \(snapshot.address)"))
            Default sink:    \(TerminalText.escaped(defaultSink))
            Default source:  \(TerminalText.escaped(defaultSource))
            Devices:         \(snapshot.sinks.count) sinks, \(snapshot.sources.count) sources, \(snapshot.cards.count) cards
            Streams:         \(snapshot.sinkInputCount) playing, \(snapshot.sourceOutputCount) recording
            """
    }
}
