import ArgumentParser

/// `routectl call start|end`: call audio on and off.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Turn call audio on or off: the call list routes, in both directions.",
        discussion: """
            'start' routes audio by the call list: a Bluetooth headset, else a wired headset, \
            else the earpiece, else the speaker. A Bluetooth headset moves to its headset \
            profile (HSP/HFP) so that its microphone works, and the device's microphone \
            becomes the default input. 'end' puts back the profiles and the default input the \
            call changed, unless someone changed them since, unmutes the microphone, and \
            (when no media preference decides) brings media back where the call found it.

              routectl call start
              routectl call end

            With the daemon, this is its engine's call audio (callaudiod's SelectMode). \
            Without it, routectl runs the same engine once per command and keeps what the \
            engine needs to go on (the call, the speaker toggle, the mute, what the call \
            changed) under $XDG_RUNTIME_DIR/routekit, so that 'call end' puts it back. \
            Starting a call that is on, or ending one that is off, changes nothing and exits 0.
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
