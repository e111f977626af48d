import ArgumentParser

/// `routectl speaker on|off`: the speakerphone as the route, as callaudiod's EnableSpeaker.
struct SpeakerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speaker",
        abstract: "Put audio on the speakerphone, or take it off again (callaudiod's EnableSpeaker).",
        discussion: """
            'on' sends audio to a speakerphone (the one in use, else the newest), as \
            'routectl use speakerphone' does. 'off' takes it away from the speaker: with the \
            daemon, a speaker chosen by hand is let go and the preferences decide; without it, \
            audio goes to a wired headset, else a Bluetooth one, else the earpiece.

              routectl speaker on
              routectl speaker off

            No speakerphone (for 'on'), or nothing but the speaker (for 'off'), exits 67 and \
            lists the devices.
            """)

    /// On or off.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @OptionGroup var server: ServerOptions

    /// `on` or `off`.
    @Argument(help: ArgumentHelp("on or off.", valueName: "on|off"))
    var action: Action

    func run() async throws {
        try await reportingFailures {
            try await server.withRoutingControl { control in
                let route = try await control.setSpeaker(action == .on)
                print("speaker: \(action.rawValue); audio goes to \(RouteEventLine.named(route))")
            }
        }
    }
}
