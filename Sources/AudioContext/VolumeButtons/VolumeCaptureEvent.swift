/// What volume-button capture reports.
public enum VolumeCaptureEvent: Hashable, Sendable, CustomStringConvertible {
    /// Capture holds `sink`: the user's level was `original`; the sink is held at `held`
    /// (the same, or one step inside 0 … 100 % so that presses at the ends still change it).
    case capturing(sink: String, original: SinkLevel, held: SinkLevel)
    /// Capture is on but there is no default sink to hold; it starts on the next one.
    case waitingForSink
    /// A volume key was pressed on `sink` (one event per press).
    case pressed(VolumeButton, sink: String)
    /// Capture let go of `sink` and asked for `restored`, the user's level when it began
    /// (capture stopped, or the default output moved away).
    case released(sink: String, restored: SinkLevel)

    /// For people and logs.
    public var description: String {
        switch self {
        case .capturing(let sink, let original, let held): "capturing \(sink) (user's \(original), held \(held))"
        case .waitingForSink: "waiting for a default sink"
        case .pressed(let button, let sink): "\(button) pressed on \(sink)"
        case .released(let sink, let restored): "released \(sink) (restored \(restored))"
        }
    }
}
