import ArgumentParser

/// `routectl call start|end`: call audio on and off.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Turn call audio on or off: the route's device in both directions.",
        discussion: """
            'start' uses the device audio goes to for both directions: a Bluetooth headset \
            moves to its headset profile (HSP/HFP) so that its microphone works, and the \
            device's microphone becomes the default input. 'end' puts back the profile and \
            the default input as they were, unless someone changed them since.

              routectl call start
              routectl call end

            With the daemon, this is the engine's call audio (callaudiod's SelectMode). \
            Without it, routectl does the same once and records what it changed under \
            $XDG_RUNTIME_DIR/routekit, so that 'call end' can put it back. Starting a call \
            that is on, or ending one that is off, changes nothing and exits 0.
            """)

    /// On or off.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case start, end
    }

    @OptionGroup var server: ServerOptions

    /// `start` or `end`.
    @Argument(help: ArgumentHelp("start or end.", valueName: "start|end"))
    var action: Action

    func run() async throws {
        try await reportingFailures {
            try await server.withRoutingControl { control in
                let isOn = action == .start
                let changed = try await control.setCallAudio(isOn)
                print("call audio: \(isOn ? "on" : "off")" + (changed ? "" : " (it was already)"))
            }
        }
    }
}
