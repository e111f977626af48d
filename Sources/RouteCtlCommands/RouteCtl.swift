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
            Bluetooth headset whenever one is there, else on the speaker, until stopped. \
            When it runs, use, prefer, call, speaker and mic go through it; when it does \
            not, they run the daemon's engine once on the sound server, with the same \
            answers, and prefer says it needs the daemon.

              routectl list                  the devices, and where audio goes
              routectl use bluetooth         audio to a Bluetooth headset, now
              routectl call start            its microphone too (HSP/HFP)
              routectl speaker on            the speakerphone (callaudiod's EnableSpeaker)
              routectl mic mute              the default input muted
              routectl monitor               watch it happen
              routectl prefer bluetooth speakerphone   the daemon's preferences, kept

            Exit status: 0 on success, 64 for a usage error (a misspelled kind among them), \
            65 for a dump that cannot be read as one, 66 for a file that cannot be opened, 67 \
            when no such device or kind is present (the message lists those there are), 68 \
            when no daemon runs or answers (prefer needs one), 69 when no sound server can be \
            reached, 70 when the server refused or failed a request, 72 when there is no session bus to \
            find the daemon on, 75 when a D-Bus name the daemon serves is owned by another \
            process, 78 for an invalid configuration file (its line and key named).
            """,
        version: "0.1.0",
        subcommands: [ListCommand.self, StatusCommand.self, UseCommand.self, PreferCommand.self, MonitorCommand.self,
                      CallCommand.self, SpeakerCommand.self, MicCommand.self, VolumeKeysCommand.self, DaemonCommand.self]
    )

    /// Creates the command; ArgumentParser fills it in.
    public init() {}
}
