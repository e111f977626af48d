import FoundationEssentials

/// Configuration files written into a sandbox directory (its `HOME`) before anything starts.
enum SandboxFiles {
    /// Writes the files for `kind` into `directory`.
    static func write(for kind: SoundServerKind, in directory: String) throws(SandboxError) {
        var files = [
            // libpulse clients of the sandbox must never start a server of their own.
            ".config/pulse/client.conf": "autospawn = no\n",
        ]
        if kind == .pulseaudio {
            // PulseAudio caps itself at 256 descriptors by default, which ends at about 60
            // null sinks; benchmarks use hundreds of devices and streams.
            files[".config/pulse/daemon.conf"] = "rlimit-nofile = 16384\n"
        }
        if kind == .pipewire {
            // WirePlumber 0.4 (Lua): no real hardware, whatever the machine has.
            files[".config/wireplumber/main.lua.d/60-routekit-sandbox.lua"] = """
                alsa_monitor.enabled = false
                v4l2_monitor.enabled = false
                libcamera_monitor.enabled = false

                """
            files[".config/wireplumber/bluetooth.lua.d/60-routekit-sandbox.lua"] = """
                bluez_monitor.enabled = false

                """
            // WirePlumber 0.5 (SPA-JSON profiles): the same.
            files[".config/wireplumber/wireplumber.conf.d/60-routekit-sandbox.conf"] = """
                wireplumber.profiles = {
                  main = {
                    monitor.alsa = disabled
                    monitor.alsa-midi = disabled
                    monitor.bluez = disabled
                    monitor.bluez-midi = disabled
                    monitor.v4l2 = disabled
                    monitor.libcamera = disabled
                  }
                }

                """
        }
        for (relativePath, contents) in files {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(relativePath)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            } catch {
                throw SandboxError("could not write \(url.path): \(error)")
            }
        }
    }

    /// The last `count` lines of each log in `directory` of the given daemons, each headed by
    /// its file name; empty if there are none.
    static func logTail(of daemons: [SandboxDaemon], in directory: String, count: Int = 15) -> String {
        daemons.compactMap { daemon -> String? in
            let path = directory + "/" + daemon.logFileName
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let tail = lines.suffix(count + 1).joined(separator: "\n").trimmingTrailingNewlines()
            return "==> \(daemon.logFileName) <==\n\(tail)"
        }.joined(separator: "\n")
    }
}
