/// The sound servers a ``SandboxServer`` can run.
///
/// Both serve the PulseAudio native protocol, so one libpulse client talks to either.
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PulseAudio itself: one `pulseaudio` process, started with no modules but the native
    /// protocol, so it has no sinks until a test loads some.
    case pulseaudio

    /// PipeWire with WirePlumber as its session manager and `pipewire-pulse` serving the
    /// PulseAudio protocol, on a private D-Bus session bus.
    case pipewire

    /// The kind's raw value, for test names and logs.
    public var description: String { rawValue }
}
