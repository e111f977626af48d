import FoundationEssentials
import ProcessRunner

extension SandboxServer {
    /// How long each diagnostic command may run (a frozen server never answers).
    static let diagnosticTimeLimit = Duration.seconds(5)

    /// Keeps what this sandbox shows now, before its folder goes: every daemon's log, what a
    /// client connecting now sees (`pactl info`, sinks, sources, clients) and, on PipeWire, the
    /// "default" and "settings" metadata (`pw-metadata`) and the graph (`pw-dump`), with `note` (what the test's own,
    /// long-lived connections saw) in `note.txt`. Each call keeps into a new folder (the
    /// second one's name ends in `-2`). Returns the folder, or nil when
    /// `ROUTEKIT_SANDBOX_DIAGNOSTICS=0` or nothing could be written.
    ///
    /// ``withServer(_:isolation:_:)`` calls it when its body throws; with
    /// `ROUTEKIT_SANDBOX_PIPEWIRE_PULSE_DEBUG` (pipewire-pulse's `PIPEWIRE_DEBUG`) set for the
    /// test process, pipewire-pulse's own log is among the kept files.
    @discardableResult
    public func keepDiagnostics(note: String) async -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard let base = SandboxDiagnostics.folder(for: directory, kind: kind, environment: environment) else { return nil }
        // A test may keep a moment of its own first (while its connections are open); each
        // later one goes beside it, numbered.
        var folder = base
        var number = 1
        while FileManager.default.fileExists(atPath: folder) {
            number += 1
            folder = "\(base)-\(number)"
        }
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        write(note + "\n", to: folder + "/note.txt")
        // Side by side: against a frozen server each pactl waits out its time limit, and one
        // after another they took 20 s of a failing test's time.
        let kept = folder
        await withTaskGroup(of: Void.self) { group in
            for snapshot in SandboxDiagnostics.snapshots(for: kind) {
                let tool: String? = switch snapshot.tool {
                case .pactl: tools.pactl
                case .pwMetadata: Self.find("pw-metadata", path: environment["PATH"])
                case .pwDump: Self.find("pw-dump", path: environment["PATH"])
                }
                guard let tool else { continue }
                group.addTask {
                    let text = await self.runSnapshot([tool] + snapshot.arguments)
                    self.write(text, to: kept + "/" + snapshot.file)
                }
            }
        }
        for daemon in kind.daemons {
            let log = directory + "/" + daemon.logFileName
            try? FileManager.default.copyItem(atPath: log, toPath: folder + "/" + daemon.logFileName)
        }
        return folder
    }

    /// Runs one diagnostic command against this sandbox: the command line, how it ended, and
    /// what it printed.
    private func runSnapshot(_ command: [String]) async -> String {
        do {
            let completion = try await ChildProcess.run(command, environment: processEnvironment,
                                                        timeLimit: Self.diagnosticTimeLimit)
            return "$ \(command.joined(separator: " "))\n# \(completion.termination)"
                + (completion.timedOut ? " (timed out)" : "") + "\n"
                + completion.standardOutput + completion.standardError
        } catch {
            return "could not run \(command[0]): \(error)\n"
        }
    }

    private static func find(_ name: String, path: String?) -> String? {
        ExecutableSearch.find(name, in: ExecutableSearch.directories(inPath: path ?? "") + ["/usr/bin", "/bin"])
    }

    private func write(_ text: String, to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }
}
