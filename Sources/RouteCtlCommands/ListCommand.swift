import ArgumentParser
import DumpReader
import FoundationEssentials
import PulseAudio
import RouteKit

/// `routectl list`: the devices a person sees, from the server or from a saved dump.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List audio devices: headsets, speakers, earpieces, HDMI...",
        discussion: """
            A device pairs an output with the input that goes with it (a headset's \
            microphone with its speakers). The device audio goes to now is marked '*'. \
            Devices whose card profile is not active are listed too, with the profile they need.

            --from-dump reads a saved 'pactl list' (or 'pactl list cards sinks sources', \
            pacmd, wpctl inspect, pw-cli or pw-dump) text instead of asking a server, to \
            see a machine as RouteKit would from a bug report.

            --raw lists the server's sinks and sources as they are instead of devices.
            """)

    @OptionGroup var server: ServerOptions

    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false

    @Option(name: .customLong("from-dump"), help: ArgumentHelp("Read devices from a saved dump instead of a server.",
                                                               valueName: "file"))
    var dumpPath: String?

    @Flag(name: .long, help: "List the server's sinks and sources instead of devices.")
    var raw = false

    func validate() throws {
        if dumpPath != nil, raw { throw ValidationError("--raw lists a live server's sinks and sources; it does not read dumps.") }
        if dumpPath != nil, server.server != nil { throw ValidationError("--from-dump reads a file; --server does not apply.") }
    }

    func run() async throws {
        try await reportingFailures {
            if let dumpPath {
                let devices = try Self.devices(fromDumpAt: dumpPath)
                print(json ? try DeviceOutput.json(devices) : DeviceOutput.table(devices))
                return
            }
            let snapshot = try await server.withClient(ServerSnapshot.read)
            if raw {
                print(json ? try JSONOutput.encode(JSONOutput.devices(snapshot)) : Self.rawTable(snapshot))
            } else {
                print(json ? try DeviceOutput.json(snapshot.devices) : DeviceOutput.table(snapshot.devices))
            }
        }
    }

    static func devices(fromDumpAt path: String) throws -> [AudioDevice] {
        let text: String
        do {
            text = try DumpFile.read(atPath: path)
        } catch {
            throw RouteCtlFailure.unusableDumpFile(error)
        }
        let dump: ServerDump
        do {
            dump = try ServerDump.parse(text)
        } catch {
            throw RouteCtlFailure.malformedDump(path: path, line: error.line, message: error.message)
        }
        return DeviceModel.devices(cards: dump.cards, sinks: dump.sinks, sources: dump.sources,
                                   defaultSinkName: dump.defaultSinkName, defaultSourceName: dump.defaultSourceName)
    }

    static func rawTable(_ snapshot: ServerSnapshot) -> String {
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
