import PulseAudio
import RouteKit

/// Which of a manager's mirrors volume capture hands to its machine, and as what: the
/// default sink each shows, once per change, never from a mirror older than the reading that
/// followed capture's last request.
///
/// The manager hands on mirrors as its loop reads the server, and a reading asked just before
/// a restore landed can come back after the restore was answered, showing the level before
/// it. So after each request capture has the sink read again
/// (``AudioDeviceManager/mirror(readingAgain:defaults:)``) and ``readAgain(_:)`` takes that mirror and
/// from then on none of a lower ``ServerMirror/revision``.
struct MirrorReadingFilter: Sendable {
    /// The reading last handed on: nil when none was (capture off, or the connection went).
    private(set) var last: DefaultSinkReading?? = nil
    /// The lowest revision still taken.
    private(set) var oldestTaken: UInt64 = 0

    /// Nothing taken yet.
    init() {}

    /// The default sink `mirror` shows, for the machine; nil when the mirror is older than
    /// the last reading taken after a request, is not connected (then the next connected one
    /// is taken whatever it shows), or shows what was last handed on. `.some(nil)`: there is
    /// no default sink.
    mutating func take(_ mirror: ServerMirror) -> DefaultSinkReading?? {
        guard mirror.revision >= oldestTaken else { return nil }
        guard mirror.isConnected else {
            last = nil
            return nil
        }
        let reading = Self.reading(of: mirror)
        guard last != .some(reading) else { return nil }
        last = .some(reading)
        return .some(reading)
    }

    /// `mirror` read the sinks again after capture's request was answered: no older one is
    /// taken after it, and its reading is handed on even when it shows what was last handed
    /// on (the machine has counted its request as applied since: the same level again is a
    /// press made after the restore, or a restore the server did not keep). nil when not
    /// connected.
    mutating func readAgain(_ mirror: ServerMirror) -> DefaultSinkReading?? {
        oldestTaken = max(oldestTaken, mirror.revision)
        last = nil
        return take(mirror)
    }

    /// Capture starts with `mirror` (the manager's now): the reading to start from, nil when
    /// not connected.
    mutating func start(with mirror: ServerMirror) -> DefaultSinkReading? {
        last = nil
        oldestTaken = mirror.revision
        return take(mirror) ?? nil
    }

    /// Capture stopped: nothing was handed on.
    mutating func stop() {
        last = nil
    }

    /// The default sink as `mirror` shows it; nil when there is none.
    static func reading(of mirror: ServerMirror) -> DefaultSinkReading? {
        mirror.defaultSink.map { DefaultSinkReading(sink: $0.name, level: SinkLevel(volume: $0.volume, isMuted: $0.isMuted)) }
    }
}
