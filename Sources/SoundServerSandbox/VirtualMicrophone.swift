/// A virtual microphone of the sandbox's convention (Docs/VirtualDevices.md): a source with
/// the properties of the device it belongs to, real volume and mute, that records silence.
///
/// The module differs by server, as no one module does it well on both:
/// - PulseAudio: `module-pipe-source` reading a FIFO in the sandbox (`<name>.fifo`), which
///   nobody writes unless a test feeds it; PulseAudio's `module-null-source` takes no
///   properties.
/// - PipeWire: `module-null-sink` with `media.class=Audio/Source/Virtual`, a null node that
///   pipewire-pulse lists as a source (not a monitor). pipewire-pulse's own `module-pipe-source`
///   pauses its stream at every underrun of a FIFO nobody writes, and crashed pipewire-pulse
///   (a segfault in its data loop, in `libpipewire-module-pipe-tunnel.so`, 0.3.65 and 1.4.2)
///   about a dozen times a day of test runs as such a microphone was unplugged. It is ranked
///   as the pipe source was (``pipeWirePriority``), so WirePlumber makes it the default source.
///
/// RouteKit's classifier reads the device's own properties first (`device.bus`,
/// `device.form_factor`), so both are the same kind of device; a microphone without them
/// is virtual on PipeWire, as the media class says.
public enum VirtualMicrophone {
    /// The media class of a virtual microphone's node on PipeWire.
    public static let pipeWireMediaClass = "Audio/Source/Virtual"

    /// The `priority.session` of a virtual microphone's node on PipeWire, unless its
    /// properties give one: what pipewire-pulse's pipe source carries as `priority.driver`.
    /// WirePlumber chooses the default source by it, and 0.5 counts sinks' monitors among the
    /// candidates: a null node has no priority of its own, and a monitor would win.
    public static let pipeWirePriority = "50000"

    /// The module to load for a microphone named `name` on a `kind` server, and its
    /// arguments as one string (`PulseClient.loadModule`, or `pactl load-module` split on
    /// spaces outside quotes). `properties` get ``VirtualDeviceProperties/common`` added and
    /// may contain spaces but no quote, backslash or control character; `name` neither, nor
    /// spaces. `directory` holds the FIFO on PulseAudio.
    public static func module(on kind: SoundServerKind, name: String, properties: [String: String],
                              directory: String) throws(SandboxError) -> (name: String, arguments: String) {
        let words = try NullSinkArguments.makeMicrophone(
            name: name, file: fifoPath(name: name, directory: directory),
            properties: VirtualDeviceProperties.adding(to: properties), on: kind)
        return (words[0], words.dropFirst().joined(separator: " "))
    }

    /// Where the FIFO of microphone `name` is on PulseAudio (none is made on PipeWire).
    public static func fifoPath(name: String, directory: String) -> String {
        directory + "/" + name + ".fifo"
    }
}
