import PulseAudio

/// The figures volume-button capture works with, in libpulse's linear scale (`pa_volume_t`,
/// ``ChannelVolumes/normal`` = 100 %). Volumes are compared by their loudest channel
/// (`pa_cvolume_max`, the figure `pactl` prints): a change of balance alone is no press.
public struct VolumeCaptureConfiguration: Hashable, Sendable {
    /// What one press changes: 5 % of `PA_VOLUME_NORM` (3277), as `pactl set-sink-volume
    /// @DEFAULT_SINK@ +5%` and most desktops' volume keys do. A change seen at once is
    /// counted as `round(change / step)` presses, at least one, so that presses the server
    /// applied before capture could read them each still count.
    public var step: UInt32
    /// How far inside 0 … 100 % the level is held while capturing: one ``step``. At 0 % a
    /// key that lowers has nothing to lower and at 100 % one that raises (clamping at 100 %)
    /// has nothing to raise: no change, so no press. 5 % on libpulse's cubic scale is
    /// −78 dB and 95 % is −1.3 dB.
    public var edgeMargin: UInt32
    /// Volumes closer than this are the same level: the servers' own rounding (PipeWire
    /// keeps volumes as floats) is no press. 0.1 % of `PA_VOLUME_NORM`.
    public var tolerance: UInt32
    /// How long putting the user's level back after capture may take: a server that has not
    /// answered by then (frozen: SIGSTOP) is given up on, so that a stop stays within its bound.
    public var restoreTimeout: Duration

    /// 5 % steps, held one step inside the range, 0.1 % tolerance, 2 s to restore.
    public init(step: UInt32 = ChannelVolumes.normal / 20, edgeMargin: UInt32? = nil,
                tolerance: UInt32 = ChannelVolumes.normal / 1000, restoreTimeout: Duration = .seconds(2)) {
        self.step = max(step, 1)
        self.edgeMargin = edgeMargin ?? self.step
        self.tolerance = tolerance
        self.restoreTimeout = restoreTimeout
    }

    /// `volume` moved inside [``edgeMargin``, normal − ``edgeMargin``] by its loudest channel,
    /// the balance kept (every channel scaled alike); unchanged when it is inside already.
    func held(_ volume: ChannelVolumes) -> ChannelVolumes {
        let loudest = volume.values.max() ?? 0
        let low = edgeMargin
        let high = ChannelVolumes.normal - min(edgeMargin, ChannelVolumes.normal)
        guard loudest < low || loudest > high else { return volume }
        let target = UInt64(loudest < low ? low : high)
        guard loudest > 0 else { return ChannelVolumes(channelCount: volume.values.count, volume: UInt32(target)) }
        return ChannelVolumes(volume.values.map { UInt32((UInt64($0) * target + UInt64(loudest) / 2) / UInt64(loudest)) })
    }

    /// Whether `a` and `b` are the same level: every channel within ``tolerance``.
    func same(_ a: ChannelVolumes, _ b: ChannelVolumes) -> Bool {
        a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { max($0, $1) - min($0, $1) <= tolerance }
    }

    /// The presses a change from `old` to `new` stands for: by the loudest channel, rounded
    /// to steps, at least one; none when it is within ``tolerance``.
    func presses(from old: ChannelVolumes, to new: ChannelVolumes) -> (VolumeButton, Int)? {
        let before = Int64(old.values.max() ?? 0)
        let after = Int64(new.values.max() ?? 0)
        let change = after - before
        guard change.magnitude > UInt64(tolerance) else { return nil }
        let count = max(1, Int((Double(change.magnitude) / Double(step)).rounded()))
        return (change > 0 ? .up : .down, count)
    }
}
