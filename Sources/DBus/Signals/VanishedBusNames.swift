/// The unique bus names (`:1.42`) whose connection has left the bus, in the order the bus
/// announced it, each once: what ``BusConnection/vanishedNames()`` gives.
///
/// Built on the bus's `NameOwnerChanged(name, old_owner, new_owner)`: a unique name is never
/// handed on, so it vanishes exactly when the bus says its owner is gone (`new_owner` empty).
/// A well-known name that changes hands, or that a connection still on the bus releases, is
/// not a vanished unique name and is left out. It ends when the connection ends.
public struct VanishedBusNames: AsyncSequence, Sendable {
    /// A unique bus name.
    public typealias Element = String

    let signals: AsyncStream<BusSignalMessage>

    /// The match rule: the bus daemon's own NameOwnerChanged with no new owner, so that the
    /// bus wakes the connection only when a name loses its owner, never when one is taken.
    public static let matchRule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
        + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''"

    /// Reads the names from the signals.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var signals: AsyncStream<BusSignalMessage>.AsyncIterator

        /// The next unique name that vanished; nil once the connection has ended.
        public mutating func next() async -> String? {
            while let signal = await signals.next() {
                if let name = signal.vanishedUniqueName { return name }
            }
            return nil
        }
    }

    /// Iterates the names.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(signals: signals.makeAsyncIterator())
    }
}

extension BusSignalMessage {
    /// The unique name this signal says has left the bus: set for the bus daemon's
    /// `NameOwnerChanged(":1.42", ":1.42", "")` (signature `sss`), nil for any other signal,
    /// including a well-known name losing its owner.
    public var vanishedUniqueName: String? {
        guard sender == "org.freedesktop.DBus", interface == "org.freedesktop.DBus", member == "NameOwnerChanged",
              arguments.count == 3, case .string(let name) = arguments[0], case .string(let oldOwner) = arguments[1],
              case .string(let newOwner) = arguments[2],
              name.hasPrefix(":"), oldOwner == name, newOwner.isEmpty else { return nil }
        return name
    }
}

extension BusConnection {
    /// The unique names of the connections that leave the bus from now on (installed on the
    /// bus when this returns), for ending what a client asked for when it goes; a method
    /// call's caller is its ``BusMethodCall/sender``. Ending the iteration removes the match.
    ///
    /// A caller may have left before the subscription was installed, or before its call is
    /// looked at (calls and signals come in separate streams): ``owner(of:)`` on its unique
    /// name answers nil then.
    public func vanishedNames() async throws -> VanishedBusNames {
        VanishedBusNames(signals: try await signals(matching: VanishedBusNames.matchRule, filter: SignalFilter(signature: "sss")))
    }
}
