/// The properties every virtual device of a sandbox carries besides the caller's, so that it
/// behaves like hardware on every server version (Docs/VirtualDevices.md). Tests that load
/// their null sinks themselves add them too.
public enum VirtualDeviceProperties {
    /// `node.always-process=true`: the device's PipeWire node is started at once and never
    /// suspended, as a hardware sink in use is and as PulseAudio's null sink (which no
    /// module suspends in a sandbox) always is. Without it, PipeWire 1.x (pipewire-pulse with
    /// WirePlumber 0.5) keeps a new null sink or pipe source suspended and unconfigured, and
    /// `set-sink-volume`, `set-sink-mute` and `set-source-mute` on it answer success but
    /// change nothing that anyone sees until a stream first plays on it. PipeWire 0.3 changed
    /// them either way; PulseAudio ignores the property. It costs PipeWire a wake-up each
    /// quantum for each device (about 45 a second), which tests and demos can afford.
    public static let common: [String: String] = ["node.always-process": "true"]

    /// `properties` with the common ones added; the caller's own values win.
    public static func adding(to properties: [String: String]) -> [String: String] {
        properties.merging(common) { caller, _ in caller }
    }
}
