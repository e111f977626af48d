import ArgumentParser
import PulseAudio

/// `routectl list`: every sink and source.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the server's sinks (outputs) and sources (inputs).",
        discussion: """
            The default sink and source are marked with '*'. Monitor sources (which record \
            what a sink plays) are listed with the sink they monitor. With --json, prints \
            {"sinks": [...], "sources": [...]} with each device's ports and properties.
            """)

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let snapshot = try await server.withClient(ServerSnapshot.read)
            print(json ? try JSONOutput.encode(JSONOutput.devices(snapshot)) : Self.table(snapshot))
        }
    }

    static func table(_ snapshot: ServerSnapshot) -> String {
        var sinks = TextTable(header: ["", "SINK", "DESCRIPTION", "STATE", "PORT", "VOLUME"])
        for sink in snapshot.sinks {
            sinks.rows.append([sink.name == snapshot.info.defaultSinkName ? "*" : "", sink.name, sink.description,
                               sink.state.rawValue, sink.activePortName ?? "-", volumeText(sink.volume, sink.isMuted)])
        }
        var sources = TextTable(header: ["", "SOURCE", "DESCRIPTION", "STATE", "PORT", "VOLUME"])
        for source in snapshot.sources {
            var description = source.description
            if let sink = source.monitorOfSinkName, !description.hasPrefix("Monitor of") {
                description += " (monitor of \(sink))"
            }
            sources.rows.append([source.name == snapshot.info.defaultSourceName ? "*" : "", source.name, description,
                                 source.state.rawValue, source.activePortName ?? "-",
                                 volumeText(source.volume, source.isMuted)])
        }
        let sinkText = snapshot.sinks.isEmpty ? "No sinks." : sinks.render()
        let sourceText = snapshot.sources.isEmpty ? "No sources." : sources.render()
        return sinkText + "\n\n" + sourceText
    }

    static func volumeText(_ volume: ChannelVolumes, _ muted: Bool) -> String {
        "\(Int(volume.percent.rounded()))%" + (muted ? " (muted)" : "")
    }
}
