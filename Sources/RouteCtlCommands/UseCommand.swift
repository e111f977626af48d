import ArgumentParser
import RouteKit
import RouteKitDaemon

/// `routectl use DEVICE|KIND`: audio to this device now.
struct UseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Send audio to a device now: a device id from 'routectl list', or a kind.",
        discussion: """
            Makes the device the default output (and its microphone, or the one that goes \
            with it, the default input) and waits until the server shows it. A kind picks the \
            device of that kind in use, else the newest one.

              routectl use speakerphone
              routectl use bluetooth
              routectl use alsa_card.usb-Jabra_Link_380-00/analog-output

            When the daemon runs, the choice is kept while the device is present: above every \
            preference, and dropped when the device goes ('routectl use --clear' lets go of it \
            sooner). Without the daemon, routectl switches once, as pactl set-default-sink \
            would: a device plugged in later is not followed.

            An unknown device or a device that is not there exits 67 and lists the ones that \
            are; a misspelled kind exits 64.
            """)

    @OptionGroup var server: ServerOptions

    /// The device id or kind.
    @Argument(help: ArgumentHelp("A device id from 'routectl list', or bluetooth, wiredHeadset, speakerphone, earpiece.",
                                 valueName: "device|kind"))
    var target: String?

    /// Lets go of the device chosen before.
    @Flag(name: .long, help: "Let go of the device chosen with 'routectl use': the daemon's preferences decide again.")
    var clear = false

    func validate() throws {
        if clear, target != nil { throw ValidationError("--clear lets go of the choice; it takes no device.") }
        if !clear, target == nil { throw ValidationError("Name a device id from 'routectl list', or a kind: bluetooth, wiredHeadset, speakerphone, earpiece.") }
    }

    func run() async throws {
        try await reportingFailures {
            try await server.withRoutingControl { control in
                guard let target else {
                    let cleared = try await control.clearSelection()
                    print(cleared ? "use: the daemon's preferences decide again"
                          : "use: no device was chosen with 'routectl use'" + (control.answerer == .daemon ? "" : " (no daemon keeps one)"))
                    return
                }
                let device = try await control.use(target)
                let kept = control.answerer == .daemon ? "kept while it is present"
                    : "no daemon runs: switched once; devices plugged in later are not followed"
                print("use: audio goes to \(RouteEventLine.named(device)) (\(kept))")
            }
        }
    }
}
