/// What the ringtone machine asks for; ``RingtoneFollower`` performs it, in order.
public enum RingtoneAction: Hashable, Sendable {
    /// Move the sink input `stream` to the sink `sink`.
    case move(stream: UInt32, toSink: String)
    /// Load `module-combine-sink` as the sink `name`, playing on `sinks`.
    case loadCombinedSink(name: String, sinks: [String])
    /// Unload the module `module` (the combined sink).
    case unloadModule(UInt32)
    /// Report this.
    case emit(RingtoneEvent)
}

/// What ringing did, for the daemon's lines.
public enum RingtoneEvent: Hashable, Sendable, CustomStringConvertible {
    /// A ring stream (`name`, sink input `stream`) now sounds where `placement` says.
    case moved(stream: UInt32, name: String, placement: RingingPlacement)
    /// A ring stream went back to the sink it played on before the ringing.
    case putBack(stream: UInt32, name: String, sink: String)
    /// A ring stream someone else moved to a third sink during the ringing: left where it is.
    case leftAlone(stream: UInt32, name: String)
    /// Silent mode is on: ring streams stay where they play.
    case keptForSilentMode(stream: UInt32, name: String)
    /// Something failed (a move, loading the combined sink), and what was done instead.
    case failed(String)

    /// One line, after `ring: `.
    public var description: String {
        switch self {
        case .moved(let stream, let name, let placement):
            "\(name) #\(stream) on \(placement == .both ? "the speaker and the headset" : "the speaker") while ringing"
        case .putBack(let stream, let name, let sink):
            "\(name) #\(stream) back on \(sink)"
        case .leftAlone(let stream, let name):
            "\(name) #\(stream) was moved by someone else during the ringing: left where it is"
        case .keptForSilentMode(let stream, let name):
            "\(name) #\(stream) stays on the headset: silent mode is on"
        case .failed(let message):
            message
        }
    }
}
