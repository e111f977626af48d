import CSystemdBus

/// Appends ``BusValue``s to an sd-bus message, with `sd_bus_message_append_basic` and the
/// container calls (Swift cannot call the variadic `sd_bus_message_append`). Runs on the
/// connection's thread only: messages belong to it.
enum MessageWriter {
    /// Appends each value in order. Returns 0, or a negative errno from sd-bus.
    static func append(_ values: [BusValue], to message: OpaquePointer) -> Int32 {
        for value in values {
            let result = append(value, to: message)
            if result < 0 { return result }
        }
        return 0
    }

    /// Appends one value. Returns 0, or a negative errno from sd-bus.
    static func append(_ value: BusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .byte(let number): return appendBasic(number, "y", message)
        case .boolean(let truth): return appendBasic(Int32(truth ? 1 : 0), "b", message)
        case .int16(let number): return appendBasic(number, "n", message)
        case .uint16(let number): return appendBasic(number, "q", message)
        case .int32(let number): return appendBasic(number, "i", message)
        case .uint32(let number): return appendBasic(number, "u", message)
        case .int64(let number): return appendBasic(number, "x", message)
        case .uint64(let number): return appendBasic(number, "t", message)
        case .double(let number): return appendBasic(number, "d", message)
        case .string(let text): return appendText(text, "s", message)
        case .objectPath(let path): return appendText(path, "o", message)
        case .signature(let signature): return appendText(signature.rawValue, "g", message)
        case .array(let element, let elements):
            return inContainer("a", element.rawValue, message) { append(elements, to: message) }
        case .dictionary(let key, let valueType, let entries):
            let entry = key.rawValue + valueType.rawValue
            return inContainer("a", "{" + entry + "}", message) {
                for item in entries {
                    let result = inContainer("e", entry, message) { append([item.key, item.value], to: message) }
                    if result < 0 { return result }
                }
                return 0
            }
        case .structure(let fields):
            let contents = String(value.signature.rawValue.dropFirst().dropLast())
            return inContainer("r", contents, message) { append(fields, to: message) }
        case .variant(let inner):
            return inContainer("v", inner.signature.rawValue, message) { append(inner, to: message) }
        }
    }

    private static func typeCode(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }

    private static func appendBasic<Number>(_ number: Number, _ code: Unicode.Scalar, _ message: OpaquePointer) -> Int32 {
        var number = number
        return withUnsafePointer(to: &number) { sd_bus_message_append_basic(message, typeCode(code), $0) }
    }

    /// String types are passed as the string itself, not as a pointer to one.
    private static func appendText(_ text: String, _ code: Unicode.Scalar, _ message: OpaquePointer) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, typeCode(code), $0) }
    }

    private static func inContainer(_ code: Unicode.Scalar, _ contents: String, _ message: OpaquePointer,
                                    _ body: () -> Int32) -> Int32 {
        let opened = contents.withCString { sd_bus_message_open_container(message, typeCode(code), $0) }
        if opened < 0 { return opened }
        let result = body()
        if result < 0 { return result }
        return sd_bus_message_close_container(message)
    }
}
