import PulseAudio

/// Playback or capture: sinks and their sink inputs, or sources and their source outputs.
/// The engine runs PulseAudio's sink and source code paths as one, parameterised by side.
enum Side: Hashable, Sendable, CaseIterable {
    /// Sinks and sink inputs.
    case output
    /// Sources and source outputs.
    case input

    /// The facility of this side's devices.
    var deviceFacility: SubscriptionEvent.Facility { self == .output ? .sink : .source }
    /// The facility of this side's streams.
    var streamFacility: SubscriptionEvent.Facility { self == .output ? .sinkInput : .sourceOutput }
    /// The card-port direction of this side.
    var direction: CardInfo.Direction { self == .output ? .output : .input }
    /// How PulseClient names the devices in operation labels.
    var deviceNoun: String { self == .output ? "sink" : "source" }
    /// How PulseClient names the streams in operation labels.
    var streamNoun: String { self == .output ? "sink input" : "source output" }
}

/// One value for each side.
struct Sides<Value: Sendable>: Sendable {
    var output: Value
    var input: Value

    init(output: Value, input: Value) {
        self.output = output
        self.input = input
    }

    init(_ both: Value) {
        self.output = both
        self.input = both
    }

    subscript(side: Side) -> Value {
        get { side == .output ? output : input }
        set {
            if side == .output { output = newValue } else { input = newValue }
        }
    }
}
