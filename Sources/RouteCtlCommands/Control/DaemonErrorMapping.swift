import DBus
import RouteKitDBus
import RouteKitDaemon

/// The daemon's D-Bus errors as routectl's failures, with the exit statuses the direct
/// commands use for the same cases. Pure.
enum DaemonErrorMapping {
    /// `UnknownDevice` and `NotUsable`: 67, with the daemon's message, which lists what is
    /// there (64 when `target` is a misspelled kind, or a kind never chosen by kind, as without
    /// the daemon); `InvalidPreference`: 64; `ServerFailed`: 70; no answer (the daemon stopped,
    /// hangs, or the bus went away mid-call): 68, saying so; anything else (another version of
    /// the daemon): 70.
    static func failure(_ error: BusError, calling member: String, timeout: Duration, target: String? = nil)
        -> RouteCtlFailure {
        switch error.name {
        case RouteKitInterface.ErrorName.unknownDevice:
            if let target, (try? PreferenceText.read(target)) == nil {
                return .invalidChoice(error.message)
            }
            return .noSuchDevice(error.message)
        case RouteKitInterface.ErrorName.notUsable:
            return .noSuchDevice(error.message)
        case RouteKitInterface.ErrorName.invalidPreference:
            return .invalidChoice(error.message)
        case RouteKitInterface.ErrorName.serverFailed:
            return .daemonFailed("the daemon's sound server refused: \(error.message)")
        case BusError.noReplyName:
            return .daemonUnanswered("""
                the daemon did not answer \(member) (\(error.message); waited up to \(seconds(timeout))): \
                it stopped or hangs. 'routectl status' tells whether it runs.
                """)
        case BusError.disconnectedName:
            return .daemonUnanswered("the session bus went away during \(member) (\(error.message)); nothing can tell whether it was done.")
        case serviceUnknownName, BusError.nameHasNoOwnerName:
            return .daemonUnanswered("the daemon stopped before \(member) reached it: nothing was done. Start it again ('routectl daemon').")
        default:
            return .daemonFailed("the daemon refused \(member): \(error)")
        }
    }

    /// `org.freedesktop.DBus.Error.ServiceUnknown`: the name has no owner any more.
    static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"

    /// `2 s`.
    static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }
}
