import ArgumentParser

/// `routectl`: RouteKit's command line. The executable's `@main` only calls this.
public struct RouteCtl: AsyncParsableCommand {
    /// What `routectl --help` shows.
    public static let configuration = CommandConfiguration(
        commandName: "routectl",
        abstract: "See and steer where Linux audio goes, on PulseAudio or PipeWire.",
        discussion: """
            routectl talks to the sound server your desktop uses: PulseAudio, or PipeWire \
            through pipewire-pulse. It finds it the way every PulseAudio client does \
            (PULSE_SERVER, then client.conf, then $XDG_RUNTIME_DIR/pulse/native); \
            --server picks another one. It never starts a server.

            'routectl daemon --prefer bluetooth --prefer speakerphone' keeps audio on a \
            Bluetooth headset whenever one is there, else on the speaker, until stopped.

            Exit status: 0 on success, 64 for a usage error, 65 for a dump that cannot be \
            read as one, 66 for a file that cannot be opened, 69 when no sound server can \
            be reached, 70 when the server refused or failed a request.
            """,
        version: "0.1.0",
        subcommands: [ListCommand.self, StatusCommand.self, DaemonCommand.self]
    )

    /// Creates the command; ArgumentParser fills it in.
    public init() {}
}
