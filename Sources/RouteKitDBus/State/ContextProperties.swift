import DBus

/// RouteKit1's context properties, as pure functions of a ``ContextSnapshot``.
public enum ContextProperties {
    /// The properties, with their types.
    public static let all: [BusProperty] = [
        BusProperty("SilentMode", .string),           // silent, audible or unknown
        BusProperty("ScreenLock", .string),           // locked, unlocked or unknown
        BusProperty("Idle", .string),                 // idle, active or unknown
        BusProperty("PausedPlayers", .array(.string)), // players RouteKit paused and may resume
        BusProperty("VolumeCapture", .boolean),       // volume buttons are captured
    ]

    /// Their values.
    public static func values(for snapshot: ContextSnapshot) -> [String: BusValue] {
        [
            "SilentMode": .string(snapshot.silentMode.rawValue),
            "ScreenLock": .string(snapshot.screenLock.rawValue),
            "Idle": .string(snapshot.idle.rawValue),
            "PausedPlayers": .strings(snapshot.pausedPlayers),
            "VolumeCapture": .boolean(snapshot.volumeCapture),
        ]
    }
}
