import DBus

/// callaudiod's D-Bus API, which RouteKit can answer in its place: `org.mobian_project.CallAudio`
/// at `/org/mobian_project/CallAudio`, as Debian's callaudiod 0.1.7 installs it in
/// /usr/share/dbus-1/interfaces, so that GNOME Calls, Chatty and `callaudiocli` drive RouteKit.
public enum CallAudioInterface {
    /// The bus name and the interface's name.
    public static let name = "org.mobian_project.CallAudio"
    /// The object's path.
    public static let path = "/org/mobian_project/CallAudio"

    /// The methods (each answers whether it worked) and the three state properties.
    public static let interface = BusInterface(
        name: name,
        methods: [
            BusMethod("SelectMode", arguments: [BusArgument("mode", .uint32)], results: [BusArgument("success", .boolean)]),
            BusMethod("EnableSpeaker", arguments: [BusArgument("enable", .boolean)], results: [BusArgument("success", .boolean)]),
            BusMethod("MuteMic", arguments: [BusArgument("mute", .boolean)], results: [BusArgument("success", .boolean)]),
        ],
        properties: [
            BusProperty("AudioMode", .uint32),
            BusProperty("SpeakerState", .uint32),
            BusProperty("MicState", .uint32),
        ])
}
