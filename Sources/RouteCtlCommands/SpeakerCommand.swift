import ArgumentParser
import RouteKitDaemon

/// `routectl speaker on|off`: the speakerphone as the route, as callaudiod's EnableSpeaker.
struct SpeakerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speaker",
        abstract: "Turn the speaker on or off (callaudiod's EnableSpeaker).",
        discussion: """
            'on' sends audio to a speakerphone (the one in use, else the newest). 'off' takes \
            it off the speaker, to the best device of the call list that is not one: a \
            Bluetooth headset, else a wired headset, else the earpiece. With or without the \
            daemon the engine decides, the same way; in a call the toggle lasts until the call \
            ends or a device is chosen with 'routectl use'.

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
