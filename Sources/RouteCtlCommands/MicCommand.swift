import ArgumentParser

/// `routectl mic mute|unmute`: the default source's mute, as callaudiod's MuteMic.
struct MicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mic",
        abstract: "Mute or unmute the microphone: the default input (callaudiod's MuteMic).",
        discussion: """
            Mutes or unmutes the server's default source and waits until the server shows it.

              routectl mic mute
              routectl mic unmute

            No microphone (the default source is a monitor, or there is none) exits 67.
            """)

    /// Mute or unmute.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case mute, unmute
    }

    @OptionGroup var server: ServerOptions

    /// `mute` or `unmute`.
    @Argument(help: ArgumentHelp("mute or unmute.", valueName: "mute|unmute"))
    var action: Action

    func run() async throws {
        try await reportingFailures {
            try await server.withRoutingControl { control in
                let source = try await control.setMicrophoneMuted(action == .mute)
                print("mic: \(TerminalText.escaped(source)) \(action == .mute ? "muted" : "unmuted")")
            }
        }
    }
}
