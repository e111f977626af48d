import CSystemdBus
import Glibc

/// Reads an sd-bus message's arguments into ``BusValue``s, guided by the types the message
/// itself declares (`sd_bus_message_peek_type`), with `sd_bus_message_read_basic` and the
/// container calls. Runs on the connection's thread only, inside the callback that received
/// the message: nothing of the message outlives it.
enum MessageReader {
    /// A message that could not be read: a negative errno from sd-bus, or a type the reader
    /// does not take (file descriptors).
    struct Failure: Error {
        var code: Int32
        var what: String
    }

    /// Every argument from the read position to the end.
    static func readAll(_ message: OpaquePointer) throws(Failure) -> [BusValue] {
        var values: [BusValue] = []
        while let value = try readNext(message) { values.append(value) }
        return values
    }

    /// The next value in the current container; nil at its end.
    static func readNext(_ message: OpaquePointer) throws(Failure) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        if peeked < 0 { throw Failure(code: peeked, what: "peek at the next argument") }
        if peeked == 0 { return nil }
        let code = Unicode.Scalar(UInt8(bitPattern: type))
        let inner = contents.map { String(cString: $0) } ?? ""
        switch code {
        case "y": return .byte(try readBasic(message, type, UInt8(0)))
        case "b": return .boolean(try readBasic(message, type, Int32(0)) != 0)
        case "n": return .int16(try readBasic(message, type, Int16(0)))
        case "q": return .uint16(try readBasic(message, type, UInt16(0)))
        case "i": return .int32(try readBasic(message, type, Int32(0)))
        case "u": return .uint32(try readBasic(message, type, UInt32(0)))
        case "x": return .int64(try readBasic(message, type, Int64(0)))
        case "t": return .uint64(try readBasic(message, type, UInt64(0)))
        case "d": return .double(try readBasic(message, type, Double(0)))
        case "s": return .string(try readText(message, type))
        case "o": return .objectPath(try readText(message, type))
        case "g": return .signature(BusSignature(rawValue: try readText(message, type)))
        case "a":
            if inner.hasPrefix("{") { return try readDictionary(message, entry: String(inner.dropFirst().dropLast())) }
            let elements = try inContainer(message, type, inner) { () throws(Failure) in try readAll(message) }
            return .array(element: BusSignature(rawValue: inner), elements)
        case "r":
            return .structure(try inContainer(message, type, inner) { () throws(Failure) in try readAll(message) })
        case "v":
            let value = try inContainer(message, type, inner) { () throws(Failure) in try readNext(message) }
            guard let value else { throw Failure(code: -EBADMSG, what: "read an empty variant") }
            return .variant(value)
        default:
            throw Failure(code: -EOPNOTSUPP, what: "read an argument of type '\(code)'")
        }
    }

    private static func readBasic<Number>(_ message: OpaquePointer, _ type: CChar, _ initial: Number) throws(Failure) -> Number {
        var number = initial
        let result = withUnsafeMutablePointer(to: &number) { sd_bus_message_read_basic(message, type, $0) }
        if result <= 0 { throw Failure(code: result < 0 ? result : -EBADMSG, what: "read a number") }
        return number
    }

    /// String types are read as a pointer into the message, copied at once.
    private static func readText(_ message: OpaquePointer, _ type: CChar) throws(Failure) -> String {
        var text: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, type, &text)
        guard result > 0, let text else { throw Failure(code: result < 0 ? result : -EBADMSG, what: "read a string") }
        return String(cString: text)
    }

    private static func readDictionary(_ message: OpaquePointer, entry: String) throws(Failure) -> BusValue {
        // The key is one basic type: the entry's first character.
        let key = BusSignature(rawValue: String(entry.prefix(1)))
        let value = BusSignature(rawValue: String(entry.dropFirst()))
        let arrayType = CChar(UInt8(ascii: "a")), entryType = CChar(UInt8(ascii: "e"))
        let entries = try inContainer(message, arrayType, "{" + entry + "}") { () throws(Failure) -> [BusDictionaryEntry] in
            var entries: [BusDictionaryEntry] = []
            while true {
                let pair = try inContainerIfAny(message, entryType, entry) { () throws(Failure) in try readAll(message) }
                guard let pair else { return entries }
                guard pair.count == 2 else { throw Failure(code: -EBADMSG, what: "read a dictionary entry") }
                entries.append(BusDictionaryEntry(key: pair[0], value: pair[1]))
            }
        }
        return .dictionary(key: key, value: value, entries)
    }

    private static func inContainer<Result>(_ message: OpaquePointer, _ type: CChar, _ contents: String,
                                            _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard let result = try inContainerIfAny(message, type, contents, body) else {
            throw Failure(code: -EBADMSG, what: "enter a container")
        }
        return result
    }

    /// Enters the container, reads it, leaves it; nil when there is none left to enter.
    private static func inContainerIfAny<Result>(_ message: OpaquePointer, _ type: CChar, _ contents: String,
                                                 _ body: () throws(Failure) -> Result) throws(Failure) -> Result? {
        let entered = contents.withCString { sd_bus_message_enter_container(message, type, $0) }
        if entered < 0 { throw Failure(code: entered, what: "enter a container") }
        if entered == 0 { return nil }
        let result = try body()
        let exited = sd_bus_message_exit_container(message)
        if exited < 0 { throw Failure(code: exited, what: "leave a container") }
        return result
    }
}
