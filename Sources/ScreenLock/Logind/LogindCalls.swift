import DBus

/// The calls made to logind, on its bus name (the bus routes them to whoever owns it).
enum LogindCalls {
    /// `org.freedesktop.login1`.
    static let busName = "org.freedesktop.login1"
    private static let managerPath = "/org/freedesktop/login1"
    private static let managerInterface = "org.freedesktop.login1.Manager"
    private static let propertiesInterface = "org.freedesktop.DBus.Properties"
    private static let timeout = Duration.seconds(10)

    /// The call `lookup` makes, answering the session's object path.
    static func session(by lookup: SessionLookup) -> BusCall {
        switch lookup {
        case .auto:
            manager("GetSession", [.string("auto")])
        case .processID(let pid):
            manager("GetSessionByPID", [.uint32(pid)])
        case .environment(let id):
            manager("GetSession", [.string(id)])
        }
    }

    /// Every property of the session object at `path` (its `org.freedesktop.login1.Session` ones).
    static func allProperties(at path: String) -> BusCall {
        BusCall(destination: busName, path: path, interface: propertiesInterface, member: "GetAll",
                arguments: [.string(SessionHints.interface)], timeout: timeout)
    }

    /// One property of the session object at `path`.
    static func property(_ name: String, at path: String) -> BusCall {
        BusCall(destination: busName, path: path, interface: propertiesInterface, member: "Get",
                arguments: [.string(SessionHints.interface), .string(name)], timeout: timeout)
    }

    private static func manager(_ member: String, _ arguments: [BusValue]) -> BusCall {
        BusCall(destination: busName, path: managerPath, interface: managerInterface, member: member,
                arguments: arguments, timeout: timeout)
    }
}
