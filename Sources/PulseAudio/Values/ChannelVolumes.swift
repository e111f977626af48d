import CPulseAudio

/// The volume of each channel of a sink, source or stream, in libpulse's linear scale
/// (`pa_volume_t`: 0 is silence, ``ChannelVolumes/normal`` is 100 %).
public struct ChannelVolumes: Hashable, Sendable, CustomStringConvertible {
    /// 100 % (`PA_VOLUME_NORM`).
    public static let normal: UInt32 = PA_VOLUME_NORM
    /// Silence (`PA_VOLUME_MUTED`).
    public static let muted: UInt32 = PA_VOLUME_MUTED

    /// One value a channel, in channel-map order.
    public var values: [UInt32]

    /// Volumes from explicit per-channel values.
    public init(_ values: [UInt32]) { self.values = values }

    /// The same `volume` on `channelCount` channels.
    public init(channelCount: Int, volume: UInt32) {
        self.values = Array(repeating: volume, count: channelCount)
    }

    /// The same percentage (100 = ``normal``) on `channelCount` channels.
    public init(channelCount: Int, percent: Double) {
        self.init(channelCount: channelCount, volume: UInt32((Double(Self.normal) * percent / 100).rounded()))
    }

    /// The loudest channel, as a percentage of ``normal`` (the figure `pactl` prints).
    public var percent: Double {
        Double(values.max() ?? 0) * 100 / Double(Self.normal)
    }

    /// For example `100% 100%`.
    public var description: String {
        values.map { "\(Int((Double($0) * 100 / Double(Self.normal)).rounded()))%" }.joined(separator: " ")
    }

    init(_ volume: pa_cvolume) {
        var copy = volume
        var values = [UInt32](repeating: 0, count: Int(volume.channels))
        values.withUnsafeMutableBufferPointer { buffer in
            routekit_cvolume_get(&copy, buffer.baseAddress, UInt32(buffer.count))
        }
        self.values = values
    }

    /// The C value, or nil when the channel count or a value is out of libpulse's range.
    func cValue() -> pa_cvolume? {
        var volume = pa_cvolume()
        let status = values.withUnsafeBufferPointer { buffer in
            routekit_cvolume_set(&volume, buffer.baseAddress, UInt32(buffer.count))
        }
        return status == 0 ? volume : nil
    }
}
