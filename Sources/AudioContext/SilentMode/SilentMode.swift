import PulseAudio

/// Whether the default output is silent, on which sink, and why: the Linux form of a phone's
/// silent switch (the output muted) and of media volume turned all the way down (volume 0).
public enum SilentMode: Hashable, Sendable, CustomStringConvertible {
    /// There is no default sink (or it is not listed, or the server cannot be read): nothing
    /// can be said.
    case unknown
    /// The default sink `sink` plays: unmuted, and some channel above 0.
    case audible(sink: String)
    /// The default sink `sink` is silent, for `reasons` (one or both).
    case silent(sink: String, reasons: SilentReasons)

    /// The decision: the state of the default sink named in `defaultSinkName` among `sinks`.
    /// Pure; the monitor calls it with what the server shows.
    public init(defaultSinkName: String?, sinks: [SinkInfo]) {
        guard let name = defaultSinkName, let sink = sinks.first(where: { $0.name == name }) else {
            self = .unknown
            return
        }
        self.init(sink: sink)
    }

    /// The state of `sink`, taken as the default output.
    public init(sink: SinkInfo) {
        var reasons: SilentReasons = []
        if sink.isMuted { reasons.insert(.muted) }
        if !sink.volume.values.isEmpty, sink.volume.values.allSatisfy({ $0 == ChannelVolumes.muted }) {
            reasons.insert(.zeroVolume)
        }
        self = reasons.isEmpty ? .audible(sink: sink.name) : .silent(sink: sink.name, reasons: reasons)
    }

    /// True when silent, false when audible, nil when unknown.
    public var isSilent: Bool? {
        switch self {
        case .unknown: nil
        case .audible: false
        case .silent: true
        }
    }

    /// The default sink the state is about, nil when unknown.
    public var sinkName: String? {
        switch self {
        case .unknown: nil
        case .audible(let sink), .silent(let sink, _): sink
        }
    }

    /// For example `silent on speakers (muted, volume 0)`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .audible(let sink): "audible on \(sink)"
        case .silent(let sink, let reasons): "silent on \(sink) (\(reasons))"
        }
    }
}

/// Why the default output is silent.
public struct SilentReasons: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bits.
    public let rawValue: UInt8
    /// Reasons from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The sink is muted.
    public static let muted = SilentReasons(rawValue: 1 << 0)
    /// Every channel of the sink is at volume 0 (`PA_VOLUME_MUTED`).
    public static let zeroVolume = SilentReasons(rawValue: 1 << 1)

    /// For example `muted, volume 0`.
    public var description: String {
        var words: [String] = []
        if contains(.muted) { words.append("muted") }
        if contains(.zeroVolume) { words.append("volume 0") }
        return words.joined(separator: ", ")
    }
}
