import CSystemdBus
import Glibc

/// Reads an sd-bus message's arguments into ``BusValue``s, guided by the types the message
/// itself declares (`sd_bus_message_peek_type`), with `sd_bus_message_read_basic`, the
/// container calls and `sd_bus_message_read_array`, under ``BusReadLimits``: each string's
/// and each array of numbers' length is checked before it is copied, and every value built is
/// charged against the message's budget, so an oversized message is refused, never built.
/// Entries of an `a{sv}` whose key is not in `wantedKeys` (when given) are skipped by sd-bus
/// unread. Runs on the connection's thread only, inside the callback that received the
/// message: nothing of the message outlives it.
struct MessageReader {
    /// A message that could not be read: a negative errno from sd-bus, a type the reader
    /// does not take (file descriptors), or a limit passed (`-EMSGSIZE`).
    struct Failure: Error {
        var code: Int32
        var what: String

        /// Whether a limit refused the message (rather than a malformed one).
        var isOverLimit: Bool { code == -EMSGSIZE }
    }

    private let message: OpaquePointer
    private let limits: BusReadLimits
    private let wantedKeys: Set<String>?
    private var remaining: Int

    /// A reader of `message` from its read position, under `limits`.
    init(_ message: OpaquePointer, limits: BusReadLimits, wantedKeys: Set<String>? = nil) {
        self.message = message
        self.limits = limits
        self.wantedKeys = wantedKeys
        self.remaining = limits.maximumDecodedBytes
    }

    /// Every argument of `message` from the read position to the end, under `limits`.
    static func readAll(_ message: OpaquePointer, limits: BusReadLimits,
                        wantedKeys: Set<String>? = nil) throws(Failure) -> [BusValue] {
        var reader = MessageReader(message, limits: limits, wantedKeys: wantedKeys)
        return try reader.readAll()
    }

    /// Every value from the read position to the end of the current container.
    mutating func readAll() throws(Failure) -> [BusValue] {
        var values: [BusValue] = []
        while let value = try readNext() { values.append(value) }
        return values
    }

    /// The next value in the current container; nil at its end.
    mutating func readNext() throws(Failure) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        if peeked < 0 { throw Failure(code: peeked, what: "peek at the next argument") }
        if peeked == 0 { return nil }
        let code = Unicode.Scalar(UInt8(bitPattern: type))
        let inner = contents.map { String(cString: $0) } ?? ""
        if code != "a" { try charge(BusReadLimits.costPerValue) }
        switch code {
        case "y": return .byte(try readBasic(type, UInt8(0)))
        case "b": return .boolean(try readBasic(type, Int32(0)) != 0)
        case "n": return .int16(try readBasic(type, Int16(0)))
        case "q": return .uint16(try readBasic(type, UInt16(0)))
        case "i": return .int32(try readBasic(type, Int32(0)))
        case "u": return .uint32(try readBasic(type, UInt32(0)))
        case "x": return .int64(try readBasic(type, Int64(0)))
        case "t": return .uint64(try readBasic(type, UInt64(0)))
        case "d": return .double(try readBasic(type, Double(0)))
        case "s": return .string(try readText(type))
        case "o": return .objectPath(try readText(type))
        case "g": return .signature(BusSignature(rawValue: try readText(type)))
        case "a":
            try charge(BusReadLimits.costPerValue)
            if inner.hasPrefix("{") { return try readDictionary(entry: String(inner.dropFirst().dropLast())) }
            if let fixed = FixedArray(elementCode: inner) { return try readFixedArray(fixed) }
            let elements = try inContainer(type, inner) { (reader: inout MessageReader) throws(Failure) in try reader.readAll() }
            return .array(element: BusSignature(rawValue: inner), elements)
        case "r":
            return .structure(try inContainer(type, inner) { (reader: inout MessageReader) throws(Failure) in try reader.readAll() })
        case "v":
            let value = try inContainer(type, inner) { (reader: inout MessageReader) throws(Failure) in try reader.readNext() }
            guard let value else { throw Failure(code: -EBADMSG, what: "read an empty variant") }
            return .variant(value)
        default:
            throw Failure(code: -EOPNOTSUPP, what: "read an argument of type '\(code)'")
        }
    }

    /// Takes `bytes` from the budget, or refuses the message when they are not there.
    private mutating func charge(_ bytes: Int) throws(Failure) {
        guard bytes <= remaining else {
            throw Failure(code: -EMSGSIZE,
                          what: "read the message: its values pass the limit of \(limits.maximumDecodedBytes >> 10) KiB")
        }
        remaining -= bytes
    }

    private func readBasic<Number>(_ type: CChar, _ initial: Number) throws(Failure) -> Number {
        var number = initial
        let result = withUnsafeMutablePointer(to: &number) { sd_bus_message_read_basic(message, type, $0) }
        if result <= 0 { throw Failure(code: result < 0 ? result : -EBADMSG, what: "read a number") }
        return number
    }

    /// String types are read as a pointer into the message; their length is checked before
    /// they are copied.
    private mutating func readText(_ type: CChar) throws(Failure) -> String {
        var text: UnsafePointer<CChar>?
        let result = sd_bus_message_read_basic(message, type, &text)
        guard result > 0, let text else { throw Failure(code: result < 0 ? result : -EBADMSG, what: "read a string") }
        let length = strnlen(text, limits.maximumStringBytes + 1)
        guard length <= limits.maximumStringBytes else {
            throw Failure(code: -EMSGSIZE, what: "read a string: it passes the limit of \(limits.maximumStringBytes) bytes")
        }
        try charge(length)
        return String(cString: text)
    }

    /// An array of numbers, read in place by `sd_bus_message_read_array`: its size is known,
    /// and checked, before any value is built.
    private mutating func readFixedArray(_ fixed: FixedArray) throws(Failure) -> BusValue {
        var bytes: UnsafeRawPointer?
        var size = 0
        let result = sd_bus_message_read_array(message, fixed.code, &bytes, &size)
        if result < 0 { throw Failure(code: result, what: "read an array") }
        let count = size / fixed.stride
        try charge(count * BusReadLimits.costPerValue)
        guard let bytes, count > 0 else { return .array(element: fixed.signature, []) }
        return .array(element: fixed.signature, (0..<count).map { fixed.value(at: $0, in: bytes) })
    }

    private mutating func readDictionary(entry: String) throws(Failure) -> BusValue {
        // The key is one basic type: the entry's first character.
        let key = BusSignature(rawValue: String(entry.prefix(1)))
        let value = BusSignature(rawValue: String(entry.dropFirst()))
        let skipsUnwanted = wantedKeys != nil && entry == "sv"
        let arrayType = CChar(UInt8(ascii: "a")), entryType = CChar(UInt8(ascii: "e"))
        let entries = try inContainer(arrayType, "{" + entry + "}") { (reader: inout MessageReader) throws(Failure) -> [BusDictionaryEntry] in
            var entries: [BusDictionaryEntry] = []
            while true {
                let pair = try reader.inContainerIfAny(entryType, entry) { (reader: inout MessageReader) throws(Failure) -> [BusValue] in
                    skipsUnwanted ? try reader.readWantedEntry() : try reader.readAll()
                }
                guard let pair else { return entries }
                if pair.isEmpty { continue }  // skipped
                guard pair.count == 2 else { throw Failure(code: -EBADMSG, what: "read a dictionary entry") }
                entries.append(BusDictionaryEntry(key: pair[0], value: pair[1]))
            }
        }
        return .dictionary(key: key, value: value, entries)
    }

    /// Inside an `{sv}` entry: its key and value when the key is wanted; nothing, the value
    /// skipped by sd-bus unread, when it is not.
    private mutating func readWantedEntry() throws(Failure) -> [BusValue] {
        guard let key = try readNext() else { throw Failure(code: -EBADMSG, what: "read a dictionary key") }
        if let name = key.stringValue, wantedKeys?.contains(name) == false {
            let skipped = sd_bus_message_skip(message, "v")
            if skipped < 0 { throw Failure(code: skipped, what: "skip the value of \(name.prefix(40))") }
            return []
        }
        guard let value = try readNext() else { throw Failure(code: -EBADMSG, what: "read a dictionary value") }
        return [key, value]
    }

    private mutating func inContainer<Result>(_ type: CChar, _ contents: String,
                                              _ body: (inout MessageReader) throws(Failure) -> Result) throws(Failure) -> Result {
        guard let result = try inContainerIfAny(type, contents, body) else {
            throw Failure(code: -EBADMSG, what: "enter a container")
        }
        return result
    }

    /// Enters the container, reads it, leaves it; nil when there is none left to enter.
    private mutating func inContainerIfAny<Result>(_ type: CChar, _ contents: String,
                                                   _ body: (inout MessageReader) throws(Failure) -> Result) throws(Failure) -> Result? {
        let entered = contents.withCString { sd_bus_message_enter_container(message, type, $0) }
        if entered < 0 { throw Failure(code: entered, what: "enter a container") }
        if entered == 0 { return nil }
        let result = try body(&self)
        let exited = sd_bus_message_exit_container(message)
        if exited < 0 { throw Failure(code: exited, what: "leave a container") }
        return result
    }
}
