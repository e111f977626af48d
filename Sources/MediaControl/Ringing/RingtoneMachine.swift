import RouteKit

/// Ringing's decisions, as a value: fed the calls, the route, the devices, silent mode, the
/// server's sinks and streams, it returns which ring streams to move where, and when to load
/// and unload the combined sink. It performs nothing; ``RingtoneFollower`` drives it.
///
/// Ring streams (``RingingSettings/rings(_:)``) playing on a private route (a headset) move
/// to the loudspeaker, or to a sink combining the loudspeaker and the headset, while a call
/// rings with no call active or held (a second call ringing mid-call rings where the call
/// is). They go back to the sink they left as soon as that stops being so (answered, ended,
/// silent mode turned on, the headset gone), unless someone moved them to a third sink
/// meanwhile. Silent mode on: nothing goes to the loudspeaker.
public struct RingtoneMachine: Sendable {
    /// The name of the sink loaded for ``RingingPlacement/both``.
    public static let combinedSinkName = "routekit_ringing"

    /// A ring stream moved by the machine: where it was, where it was sent, whether it got there.
    struct Moved: Hashable, Sendable {
        var original: String
        var target: String
        var arrived: Bool
        var name: String
    }

    /// A playback stream as the machine knows it.
    struct Stream: Hashable, Sendable {
        var sink: UInt32
        var rings: Bool
        var name: String
    }

    private(set) var settings: RingingSettings
    private var calls: [CallSession] = []
    private var route: AudioDevice?
    private var devices: [AudioDevice] = []
    private var isSilent = false
    private var sinks: [UInt32: String] = [:]
    private var streams: [UInt32: Stream] = [:]
    /// The streams moved for this ringing.
    private(set) var moved: [UInt32: Moved] = [:]
    /// Streams left alone for the rest of this ringing: moved by someone else, or a move failed.
    private var declined: Set<UInt32> = []
    /// Streams said to stay on the headset for silent mode, while it lasts (said once each).
    private var kept: Set<UInt32> = []
    private var combinedModule: UInt32?
    private var combinedLoading = false
    private var combinedFailed = false

    /// A machine with these settings, before anything is known.
    public init(settings: RingingSettings = RingingSettings()) {
        self.settings = settings
    }

    // MARK: Inputs

    /// New settings: what the old ones moved goes back, then the new ones apply.
    public mutating func settingsChanged(_ settings: RingingSettings) -> [RingtoneAction] {
        guard settings != self.settings else { return [] }
        let ended = endRinging()
        self.settings = settings
        return ended + reconcile()
    }

    /// The calls held changed.
    public mutating func callsChanged(_ calls: [CallSession]) -> [RingtoneAction] {
        self.calls = calls
        return reconcile()
    }

    /// The route changed (nil: none).
    public mutating func routeChanged(_ route: AudioDevice?) -> [RingtoneAction] {
        self.route = route
        return reconcile()
    }

    /// The devices changed.
    public mutating func devicesChanged(_ devices: [AudioDevice]) -> [RingtoneAction] {
        self.devices = devices
        return reconcile()
    }

    /// Silent mode turned on or off.
    public mutating func silentModeChanged(_ isSilent: Bool) -> [RingtoneAction] {
        self.isSilent = isSilent
        if !isSilent { kept = [] }
        return reconcile()
    }

    /// Everything the server has now: at the start of a ringing, or after a reconnection.
    public mutating func reset(sinks: [(index: UInt32, name: String)], streams: [(index: UInt32, sink: UInt32, properties: [String: String])])
        -> [RingtoneAction] {
        self.sinks = Dictionary(sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { $1 })
        self.streams = [:]
        var actions: [RingtoneAction] = []
        for index in moved.keys.sorted() where !streams.contains(where: { $0.index == index }) {
            moved[index] = nil
        }
        for stream in streams {
            actions += note(stream.index, sink: stream.sink, properties: stream.properties)
        }
        return actions + reconcile()
    }

    /// A sink appeared or changed.
    public mutating func sinkSeen(index: UInt32, name: String) -> [RingtoneAction] {
        sinks[index] = name
        return reconcile()
    }

    /// A sink went away.
    public mutating func sinkRemoved(_ index: UInt32) -> [RingtoneAction] {
        sinks[index] = nil
        return reconcile()
    }

    /// A playback stream appeared or changed.
    public mutating func streamSeen(index: UInt32, sink: UInt32, properties: [String: String]) -> [RingtoneAction] {
        note(index, sink: sink, properties: properties) + reconcile()
    }

    /// A playback stream went away.
    public mutating func streamRemoved(_ index: UInt32) -> [RingtoneAction] {
        streams[index] = nil
        moved[index] = nil
        declined.remove(index)
        kept.remove(index)
        return reconcile()
    }

    /// The combined sink was loaded as `module`.
    public mutating func combinedSinkLoaded(module: UInt32) -> [RingtoneAction] {
        combinedLoading = false
        combinedModule = module
        return reconcile()
    }

    /// Loading the combined sink failed: this ringing sounds on the loudspeaker alone.
    public mutating func combinedSinkFailed(_ reason: String) -> [RingtoneAction] {
        combinedLoading = false
        combinedFailed = true
        return [.emit(.failed("the speaker and the headset at once needs module-combine-sink, which failed (\(reason)); "
                              + "ringing on the speaker alone"))] + reconcile()
    }

    /// A move failed: the stream is left where it is for this ringing.
    public mutating func moveFailed(stream: UInt32, reason: String) -> [RingtoneAction] {
        guard let record = moved.removeValue(forKey: stream) else { return [] }
        declined.insert(stream)
        return [.emit(.failed("\(record.name) #\(stream) could not be moved (\(reason)): left where it is"))]
    }

    /// Everything put back: the follower is stopping.
    public mutating func stopping() -> [RingtoneAction] {
        endRinging()
    }

    // MARK: State

    /// Whether a call rings with no call active or held.
    public var ringsAlone: Bool {
        calls.contains { $0.state == .ringing } && !calls.contains(where: \.holdsCallMode)
    }

    /// Whether the machine needs the server's streams: a call rings and ring streams may move,
    /// or streams it moved are still out.
    public var followsStreams: Bool {
        (ringsAlone && settings.placement != .headset) || !moved.isEmpty || combinedModule != nil
    }

    /// The private route's sink, when the route is private.
    private var headsetSink: String? {
        guard let route, settings.privateKinds.contains(route.kind) else { return nil }
        return route.output?.deviceName
    }

    /// The loudspeaker's sink.
    private var speakerSink: String? {
        devices.first { $0.kind == .speakerphone && $0.output?.deviceName != nil }?.output?.deviceName
    }

    /// Whether ring streams leave the headset now, silent mode aside.
    private var wouldMove: Bool {
        ringsAlone && settings.placement != .headset && headsetSink != nil && speakerSink != nil
    }

    private var placement: RingingPlacement {
        settings.placement == .both && combinedFailed ? .speaker : settings.placement
    }

    // MARK: Deciding

    private mutating func note(_ index: UInt32, sink: UInt32, properties: [String: String]) -> [RingtoneAction] {
        let name = properties["application.name"] ?? properties["media.name"] ?? "stream"
        streams[index] = Stream(sink: sink, rings: settings.rings(properties), name: name)
        // A sink not known (yet) is no one's choice: PipeWire shows a stream being moved on no
        // sink for a moment, and a sink may be read after the stream that plays on it.
        guard var record = moved[index], let now = sinks[sink] else { return [] }
        if now == record.target {
            record.arrived = true
            moved[index] = record
            return []
        }
        if now == record.original {
            // Not yet there, or back on its old sink for a while: pipewire-pulse shows a moved
            // stream on its new sink for one second, then on its old one until the session
            // manager relinks it (Docs/Reliability.md). Either way it is still ours: when the
            // ringing ends it is moved to its old sink, where it is or is headed.
            record.arrived = false
            moved[index] = record
            return []
        }
        moved[index] = nil
        declined.insert(index)
        return [.emit(.leftAlone(stream: index, name: record.name))]
    }

    private mutating func reconcile() -> [RingtoneAction] {
        guard wouldMove, let headset = headsetSink, let speaker = speakerSink else { return endRinging() }
        let candidates = streams.keys.sorted().filter { index in
            guard let stream = streams[index], stream.rings, moved[index] == nil, !declined.contains(index) else { return false }
            return sinks[stream.sink] == headset
        }
        if isSilent {
            var actions: [RingtoneAction] = endMoves()
            for index in candidates where !kept.contains(index) {
                kept.insert(index)
                actions.append(.emit(.keptForSilentMode(stream: index, name: streams[index]?.name ?? "stream")))
            }
            return actions
        }
        guard !candidates.isEmpty else { return [] }
        var actions: [RingtoneAction] = []
        let target: String
        switch placement {
        case .headset:
            return []
        case .speaker:
            target = speaker
        case .both:
            if combinedModule == nil {
                if !combinedLoading {
                    combinedLoading = true
                    actions.append(.loadCombinedSink(name: Self.combinedSinkName, sinks: [speaker, headset]))
                }
                return actions
            }
            guard sinks.values.contains(Self.combinedSinkName) else { return actions }
            target = Self.combinedSinkName
        }
        for index in candidates {
            let name = streams[index]?.name ?? "stream"
            moved[index] = Moved(original: headset, target: target, arrived: false, name: name)
            actions.append(.move(stream: index, toSink: target))
            actions.append(.emit(.moved(stream: index, name: name, placement: placement)))
        }
        return actions
    }

    /// The ringing is over (or does not apply any more): what was moved goes back, the
    /// combined sink is unloaded.
    private mutating func endRinging() -> [RingtoneAction] {
        var actions = endMoves()
        declined = []
        kept = []
        combinedFailed = false
        if let module = combinedModule, !combinedLoading {
            combinedModule = nil
            actions.append(.unloadModule(module))
        }
        return actions
    }

    private mutating func endMoves() -> [RingtoneAction] {
        var actions: [RingtoneAction] = []
        for index in moved.keys.sorted() {
            guard let record = moved.removeValue(forKey: index), let stream = streams[index] else { continue }
            // A move not seen to land yet is put back all the same: the server performs it.
            guard sinks[stream.sink] != record.original || !record.arrived, sinks.values.contains(record.original) else { continue }
            actions.append(.move(stream: index, toSink: record.original))
            actions.append(.emit(.putBack(stream: index, name: record.name, sink: record.original)))
        }
        return actions
    }
}
