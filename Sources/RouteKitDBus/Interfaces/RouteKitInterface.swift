import DBus

/// RouteKit's own D-Bus API: `io.github.routekit.RouteKit1` at `/io/github/routekit/RouteKit1`
/// on the session bus, under the bus name of the same name. Docs/DBus.md describes it.
public enum RouteKitInterface {
    /// The bus name and the interface's name.
    public static let name = "io.github.routekit.RouteKit1"
    /// The object's path.
    public static let path = "/io/github/routekit/RouteKit1"

    /// The errors the methods answer with, besides sd-bus's own
    /// `org.freedesktop.DBus.Error.InvalidArgs` for arguments of the wrong types.
    public enum ErrorName {
        /// No device has this id, and it names no kind; the message lists the kinds and the devices.
        public static let unknownDevice = "io.github.routekit.RouteKit1.Error.UnknownDevice"
        /// The device is present but unavailable, or has no output.
        public static let notUsable = "io.github.routekit.RouteKit1.Error.NotUsable"
        /// A preference entry that could match nothing (a misspelled kind, `external`, `virtual`, empty).
        public static let invalidPreference = "io.github.routekit.RouteKit1.Error.InvalidPreference"
        /// The sound server refused or failed the request.
        public static let serverFailed = "io.github.routekit.RouteKit1.Error.ServerFailed"
        /// The daemon cannot do this now (no context monitors, or no default output to capture).
        public static let unavailable = "io.github.routekit.RouteKit1.Error.Unavailable"
        /// No call has this id.
        public static let unknownCall = "io.github.routekit.RouteKit1.Error.UnknownCall"
        /// A call with this id is held already.
        public static let callExists = "io.github.routekit.RouteKit1.Error.CallExists"
        /// The call belongs to another client: only the client that opened it changes it.
        public static let notOwner = "io.github.routekit.RouteKit1.Error.NotOwner"
        /// A bound of ``RouteKitLimits`` was passed (too long a name, too many preferences, calls
        /// in flight or open calls); the message names the limit.
        public static let limitExceeded = "io.github.routekit.RouteKit1.Error.LimitExceeded"
    }

    /// The methods, properties and signals.
    public static let interface = BusInterface(
        name: name,
        methods: [
            BusMethod("Use", arguments: [BusArgument("device_or_kind", .string)], results: [BusArgument("route", .string)]),
            BusMethod("ClearSelection"),
            BusMethod("SetPreferences", arguments: [BusArgument("entries", .array(.string))]),
            BusMethod("ClearPreferences"),
            BusMethod("StartCall"),
            BusMethod("EndCall"),
            BusMethod("OpenCall", arguments: [BusArgument("id", .string), BusArgument("state", .string)],
                      results: [BusArgument("id", .string)]),
            BusMethod("SetCallState", arguments: [BusArgument("id", .string), BusArgument("state", .string)]),
            BusMethod("CloseCall", arguments: [BusArgument("id", .string)]),
            BusMethod("EnableSpeaker", arguments: [BusArgument("enable", .boolean)]),
            BusMethod("MuteMic", arguments: [BusArgument("mute", .boolean)]),
            BusMethod("Refresh"),
            BusMethod("ListDevices", results: [BusArgument("devices", .array(.dictionary(key: .string, value: .variant)))]),
            BusMethod("Status", results: [BusArgument("status", .dictionary(key: .string, value: .variant))]),
            BusMethod("StartVolumeCapture"),
            BusMethod("StopVolumeCapture"),
        ],
        properties: RouteKitProperties.all + ContextProperties.all,
        signals: RouteKitSignal.Kind.allCases.map(\.declaration))
}
