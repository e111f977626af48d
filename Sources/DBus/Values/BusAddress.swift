/// Which bus a ``BusConnection`` connects to.
public enum BusAddress: Hashable, Sendable, CustomStringConvertible {
    /// The user's session bus, found as every client finds it: `DBUS_SESSION_BUS_ADDRESS`,
    /// else `$XDG_RUNTIME_DIR/bus`.
    case session
    /// The machine's system bus (systemd-logind's), found as every client finds it:
    /// `DBUS_SYSTEM_BUS_ADDRESS`, else `unix:path=/run/dbus/system_bus_socket`.
    case system
    /// A bus at a D-Bus address such as `unix:path=/run/user/1000/bus`.
    case address(String)

    /// The system bus's address when `DBUS_SYSTEM_BUS_ADDRESS` names none.
    public static let defaultSystemBusAddress = "unix:path=/run/dbus/system_bus_socket"

    /// The address this resolves to now, from the environment for ``session`` and ``system``;
    /// nil when the environment names no session bus at all.
    public var resolved: String? { resolved(reading: environmentValue) }

    /// The address this resolves to with `environment` as the environment (a variable's value,
    /// nil when unset or empty): what ``resolved`` does, without reading the process's own.
    package func resolved(reading environment: (String) -> String?) -> String? {
        switch self {
        case .address(let address): return address
        case .session:
            if let address = environment("DBUS_SESSION_BUS_ADDRESS") { return address }
            if let runtime = environment("XDG_RUNTIME_DIR") { return "unix:path=\(runtime)/bus" }
            return nil
        case .system:
            return environment("DBUS_SYSTEM_BUS_ADDRESS") ?? Self.defaultSystemBusAddress
        }
    }

    /// The socket file a `unix:path=` address names (the first one, for a list of addresses);
    /// nil for abstract sockets and other transports.
    public var socketPath: String? {
        guard let address = resolved else { return nil }
        for part in address.split(separator: ";") {
            guard part.hasPrefix("unix:") else { continue }
            for pair in part.dropFirst("unix:".count).split(separator: ",") where pair.hasPrefix("path=") {
                return Self.unescape(String(pair.dropFirst("path=".count)))
            }
        }
        return nil
    }

    /// The address, or what the session bus resolves to.
    public var description: String {
        switch self {
        case .address(let address): address
        case .session: resolved.map { "the session bus (\($0))" } ?? "the session bus"
        case .system: "the system bus (\(resolved ?? Self.defaultSystemBusAddress))"
        }
    }

    /// D-Bus addresses escape bytes as `%xx`.
    private static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "%"), let high = utf8.next(), let low = utf8.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
