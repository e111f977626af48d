/// What kind of device a person would say it is.
///
/// The first four are ACB's kinds, the ones a preference can name and RouteKit picks by
/// itself. ``external`` and ``virtual`` cover what Linux adds; RouteKit never selects those
/// unless a preference names one exactly.
public enum AudioDeviceKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// A Bluetooth headset, headphones, earbuds or speaker.
    case bluetooth
    /// Headphones or a headset on a jack, on USB or on a dock.
    case wiredHeadset
    /// A loudspeaker for the room: built into the machine, or a conference speakerphone;
    /// and the built-in microphone that goes with it.
    case speakerphone
    /// A phone's handset receiver.
    case earpiece
    /// Another device: HDMI or DisplayPort, S/PDIF, line out or in, a webcam microphone.
    case external
    /// Not hardware: null, dummy, combine, echo-cancel and loopback sinks, monitors, drivers.
    case virtual

    /// Whether RouteKit may choose this kind by itself (the four personal kinds).
    public var isSelectableByKind: Bool {
        switch self {
        case .bluetooth, .wiredHeadset, .speakerphone, .earpiece: true
        case .external, .virtual: false
        }
    }

    /// The raw value.
    public var description: String { rawValue }
}
