import PulseAudio
import RouteKit

/// What callaudiod's decisions need to know about the devices: whether a loudspeaker is
/// present, the outputs a call may use instead of it (best first), and whether a microphone is.
///
/// callaudiod 0.1.7 knows one card only, one with a speaker port and an earpiece, handset or
/// headphones port (cad-pulse.c `init_card_info`), and chooses among that card's sink ports by
/// their priority, skipping those whose availability is "no" (`get_available_sink_port`). Its
/// non-speaker choice is therefore the headphones when plugged, else the earpiece. Here that
/// choice is the call preference order (Bluetooth headset, wired headset, earpiece), which
/// gives the same answer on callaudiod's card and extends it to Bluetooth headsets.
public struct CallAudioDevices: Hashable, Sendable {
    /// The call order of the outputs that are not the loudspeaker.
    public static let callOrder: [AudioDeviceKind] = [.bluetooth, .wiredHeadset, .earpiece]

    /// Whether a loudspeaker can play.
    public var hasSpeaker: Bool
    /// The outputs a call may use other than the loudspeaker, best first.
    public var callOutputs: [AudioDeviceKind]
    /// Whether a microphone (never a monitor) can record.
    public var hasMicrophone: Bool

    /// A description from its parts.
    public init(hasSpeaker: Bool, callOutputs: [AudioDeviceKind], hasMicrophone: Bool) {
        self.hasSpeaker = hasSpeaker
        self.callOutputs = callOutputs
        self.hasMicrophone = hasMicrophone
    }

    /// The description of the devices present: those not known to be unplugged.
    public init(_ devices: [AudioDevice]) {
        let usable = devices.filter { $0.availability != .unavailable }
        let outputs = Set(usable.filter { $0.output != nil }.map(\.kind))
        self.init(hasSpeaker: outputs.contains(.speakerphone),
                  callOutputs: Self.callOrder.filter(outputs.contains),
                  hasMicrophone: usable.contains { $0.input != nil && $0.kind != .virtual })
    }

    /// Whether any output a call can use is present (callaudiod's "usable sink").
    public var hasOutput: Bool { hasSpeaker || !callOutputs.isEmpty }

    /// Where speaker off sends a call: the best output that is not the loudspeaker.
    public var bestNonSpeaker: AudioDeviceKind? { callOutputs.first }

    /// Where voice call mode sends a call: the best output that is not the loudspeaker, else
    /// the loudspeaker (callaudiod then leaves the port as it is, which can only be it).
    public var callOutput: AudioDeviceKind? { bestNonSpeaker ?? (hasSpeaker ? .speakerphone : nil) }
}
