import ArgumentParser
import RouteKitDaemon
import TextSupport

/// `routectl mic mute|unmute`: the engine's microphone mute, as callaudiod's MuteMic.
struct MicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mic",
        abstract: "Mute or unmute the microphone the route records from (callaudiod's MuteMic).",
        discussion: """
            Mutes or unmutes the source audio is recorded from (the route's microphone, never \
            a monitor) and waits until the server shows it. The mute follows the route when \
            it moves (with the daemon at once; without it, at the next routectl command), \
            and ends with a call.

              routectl mic mute
              routectl mic unmute

            No microphone (nothing is recorded from, or only a monitor) exits 67.
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
