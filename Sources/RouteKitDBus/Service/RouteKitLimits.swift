import DBus

/// Every bound the daemon's D-Bus API puts on a client, in one place (listed in Docs/DBus.md,
/// "Bounds on input"). A call over one is refused with ``RouteKitInterface/ErrorName/limitExceeded``
/// naming the limit, before anything changes. Messages themselves are read under
/// ``BusReadLimits/methodCalls`` first: an argument over those is refused by the bus layer
/// with `org.freedesktop.DBus.Error.LimitsExceeded` before it is turned into values.
public enum RouteKitLimits {
    /// The longest device id or kind a client may name (`Use`, each `SetPreferences` entry), in bytes.
    public static let maximumNameBytes = 256
    /// The most entries `SetPreferences` takes.
    public static let maximumPreferences = 64
    /// The longest call id a client may give, in characters.
    public static let maximumCallIDLength = 128
    /// The most calls to the API one client may have waiting for their answer at once; past
    /// them a call is refused on the bus's thread, before it is read.
    public static let maximumCallsInFlightPerClient = 16
    /// The most calls (`OpenCall`) one client may hold open at once.
    public static let maximumOpenCallsPerClient = 8

    /// A new count of calls in flight, for one connection's objects.
    static func callsInFlight() -> CallsInFlightLimit {
        CallsInFlightLimit(perSender: maximumCallsInFlightPerClient, errorName: RouteKitInterface.ErrorName.limitExceeded)
    }

    /// `LimitExceeded` with `message`, which names the limit.
    static func exceeded(_ message: String) -> BusError {
        BusError(name: RouteKitInterface.ErrorName.limitExceeded, message: message)
    }

    /// Refuses a name longer than ``maximumNameBytes``; `what` says whose it is.
    static func checkName(_ text: String, _ what: String) throws(BusError) {
        guard text.utf8.count <= maximumNameBytes else {
            throw exceeded("\(what) has \(text.utf8.count) bytes: at most \(maximumNameBytes) bytes")
        }
    }

    /// Refuses a preference list longer than ``maximumPreferences`` or with an entry longer
    /// than ``maximumNameBytes``.
    static func checkPreferences(_ entries: [String]) throws(BusError) {
        guard entries.count <= maximumPreferences else {
            throw exceeded("\(entries.count) preferences given: at most \(maximumPreferences) preferences")
        }
        for entry in entries { try checkName(entry, "a preference entry") }
    }
}
