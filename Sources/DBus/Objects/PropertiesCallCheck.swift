import TextSupport

/// Calls to `org.freedesktop.DBus.Properties` (`Get`, `GetAll`, `Set`), checked before sd-bus
/// answers them itself from the exported objects' vtables, which no method callback of ours
/// sees: the signature exactly (sd-bus reads only the arguments it wants, so an extra one went
/// unnoticed), every argument under ``BusReadLimits/methodCalls`` (sd-bus read names of any
/// length and quoted them whole in its errors), and the names as D-Bus names (sd-bus quoted
/// control characters raw). A call that passes goes on to sd-bus as it came.
enum PropertiesCallCheck {
    /// The interface sd-bus answers for.
    static let interface = "org.freedesktop.DBus.Properties"

    /// The signature each method takes.
    static let signatures = ["Get": "ss", "GetAll": "s", "Set": "ssv"]

    /// The arguments each method takes, by name, for its errors.
    static let argumentNames = ["Get": "interface, property", "GetAll": "interface", "Set": "interface, property, value"]

    /// Why `member`, called with `signature`, is refused before its arguments are read; nil
    /// to go on. An unknown member is sd-bus's to refuse.
    static func refusal(member: String, signature: String) -> BusError? {
        guard let expected = signatures[member], signature != expected else { return nil }
        return .invalidArguments("\(member) takes '\(expected)' (\(argumentNames[member] ?? "")), "
                                 + "not '\(EscapedText.escaped(signature, formatCharacters: true))'")
    }

    /// Why `member` is refused for the names in `arguments` (read under the limits, with the
    /// signature it takes); nil to let sd-bus answer. An empty interface name is left to
    /// sd-bus, which reads it as "every interface".
    static func refusal(member: String, arguments: [BusValue]) -> BusError? {
        guard signatures[member] != nil, case .string(let interfaceName)? = arguments.first else { return nil }
        if !interfaceName.isEmpty, !isInterfaceName(interfaceName) {
            return .invalidArguments("\"\(shown(interfaceName))\" is not an interface name")
        }
        if member != "GetAll", arguments.count > 1, case .string(let property) = arguments[1], !isMemberName(property) {
            return .invalidArguments("\"\(shown(property))\" is not a property name")
        }
        return nil
    }

    /// A D-Bus interface name: two or more dot-separated elements of ASCII letters, digits
    /// and `_`, none starting with a digit, at most 255 bytes.
    static func isInterfaceName(_ name: String) -> Bool {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && elements.count >= 2 && elements.allSatisfy { isMemberName(String($0)) }
    }

    /// A D-Bus member (and property) name: ASCII letters, digits and `_`, not starting with a
    /// digit, 1 to 255 bytes.
    static func isMemberName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 255, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
            || (0x61...0x7A).contains($0) }
    }

    /// A name as an error quotes it: escaped, and cut to 80 characters.
    private static func shown(_ name: String) -> String {
        let cut = name.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(80))) + "…" : name
        return EscapedText.escaped(cut, formatCharacters: true)
    }
}
