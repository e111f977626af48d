/// A D-Bus error: its name, such as `org.freedesktop.DBus.Error.InvalidArgs`, and a message
/// for people.
///
/// It is what a failed ``BusConnection/call(_:)`` throws (the peer's error, or one of
/// sd-bus's own, such as a timeout or a lost connection), and what an exported object's
/// method answers with through ``BusMethodCall/fail(_:)``.
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's D-Bus name.
    public var name: String
    /// What went wrong, for people.
    public var message: String

    /// An error from its name and message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `org.freedesktop.DBus.Error.Failed`.
    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    /// `org.freedesktop.DBus.Error.InvalidArgs`.
    public static let invalidArgumentsName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// `org.freedesktop.DBus.Error.NoReply`: no answer in time, or the connection ended first.
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// `org.freedesktop.DBus.Error.Disconnected`: the connection is closed.
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    /// `org.freedesktop.DBus.Error.NameHasNoOwner`.
    public static let nameHasNoOwnerName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// `org.freedesktop.DBus.Error.LimitsExceeded`: a message over ``BusReadLimits``.
    public static let limitsExceededName = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// `org.freedesktop.DBus.Error.UnknownMethod`.
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"

    /// `org.freedesktop.DBus.Error.Failed` with `message`.
    public static func failed(_ message: String) -> BusError { BusError(name: failedName, message: message) }

    /// `org.freedesktop.DBus.Error.InvalidArgs` with `message`.
    public static func invalidArguments(_ message: String) -> BusError {
        BusError(name: invalidArgumentsName, message: message)
    }

    /// The connection is closed, or was lost, so nothing more can be sent on it.
    public static func disconnected(_ message: String = "the bus connection is closed") -> BusError {
        BusError(name: disconnectedName, message: message)
    }

    /// `name: message`, as `busctl` prints an error.
    public var description: String { "\(name): \(message)" }
}
