import DBus
import Glibc

/// Where ``ScreenLockMonitor`` looks.
public struct ScreenLockConfiguration: Hashable, Sendable {
    /// The bus logind is on; nil not to follow logind.
    public var systemBus: BusAddress?
    /// The bus the screensavers are on; nil not to follow them.
    public var sessionBus: BusAddress?
    /// The screensaver services followed, in order of preference.
    public var screenSavers: [ScreenSaverService]
    /// The process whose session `GetSessionByPID` looks up when `GetSession("auto")` fails.
    public var processID: UInt32
    /// The session id to look up last, as `XDG_SESSION_ID` gives it; nil to skip that lookup.
    public var sessionID: String?

    /// The machine's buses, every known screensaver, this process and its `XDG_SESSION_ID`.
    public init(systemBus: BusAddress? = .system, sessionBus: BusAddress? = .session,
                screenSavers: [ScreenSaverService] = ScreenSaverService.all,
                processID: UInt32 = UInt32(getpid()), sessionID: String? = Self.environmentSessionID) {
        self.systemBus = systemBus
        self.sessionBus = sessionBus
        self.screenSavers = screenSavers
        self.processID = processID
        self.sessionID = sessionID
    }

    /// `XDG_SESSION_ID` of this process; nil when unset or empty.
    public static var environmentSessionID: String? {
        guard let value = getenv("XDG_SESSION_ID") else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The logind lookups, in the order they are tried: `auto`, this process's, then the
    /// environment's session.
    var sessionLookups: [SessionLookup] {
        [.auto, .processID(processID)] + (sessionID.map { [.environment($0)] } ?? [])
    }

    /// The answer slots, in order of preference: logind, then the screensavers.
    var slots: [SourceSlot] {
        [.logind] + screenSavers.map(SourceSlot.screenSaver)
    }
}
