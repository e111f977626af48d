/// One D-Bus value, of any type the protocol has but file descriptors.
///
/// Values are what ``BusConnection/call(_:)`` sends and returns, what an exported object's
/// methods receive and reply, and what its properties hold. Each carries its own signature,
/// so an empty array still knows its element type.
public indirect enum BusValue: Hashable, Sendable, CustomStringConvertible {
    /// `y`.
    case byte(UInt8)
    /// `b`.
    case boolean(Bool)
    /// `n`.
    case int16(Int16)
    /// `q`.
    case uint16(UInt16)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `x`.
    case int64(Int64)
    /// `t`.
    case uint64(UInt64)
    /// `d`.
    case double(Double)
    /// `s`.
    case string(String)
    /// `o`.
    case objectPath(String)
    /// `g`.
    case signature(BusSignature)
    /// `a…`: elements that all have the `element` signature.
    case array(element: BusSignature, [BusValue])
    /// `a{kv}`: entries whose keys have the `key` signature (a basic type) and values the `value` one.
    case dictionary(key: BusSignature, value: BusSignature, [BusDictionaryEntry])
    /// `(…)`.
    case structure([BusValue])
    /// `v`: a value that carries its own type.
    case variant(BusValue)

    /// The value's own signature.
    public var signature: BusSignature {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.signature))
        case .variant: .variant
        }
    }

    /// As `busctl` prints values, roughly: for logs and test failures.
    public var description: String {
        switch self {
        case .byte(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .int16(let value): "\(value)"
        case .uint16(let value): "\(value)"
        case .int32(let value): "\(value)"
        case .uint32(let value): "\(value)"
        case .int64(let value): "\(value)"
        case .uint64(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .objectPath(let value): value
        case .signature(let value): value.rawValue
        case .array(_, let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let value): "<\(value.signature): \(value)>"
        }
    }
}

/// One entry of a ``BusValue/dictionary(key:value:_:)``.
public struct BusDictionaryEntry: Hashable, Sendable {
    /// The key: a basic type (string, number, boolean, object path).
    public var key: BusValue
    /// The value.
    public var value: BusValue

    /// An entry from its key and value.
    public init(key: BusValue, value: BusValue) {
        self.key = key
        self.value = value
    }
}

extension BusValue {
    /// `as`.
    public static func strings(_ values: [String]) -> BusValue {
        .array(element: .string, values.map(BusValue.string))
    }

    /// `a{sv}`, the usual shape of a record of named fields, in the order given.
    public static func variantDictionary(_ entries: [(String, BusValue)]) -> BusValue {
        .dictionary(key: .string, value: .variant,
                    entries.map { BusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// The string an `s`, `o` or `g` holds; nil for other types.
    public var stringValue: String? {
        switch self {
        case .string(let value), .objectPath(let value): value
        case .signature(let value): value.rawValue
        default: nil
        }
    }

    /// The truth a `b` holds; nil for other types.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The number a `u` holds; nil for other types.
    public var uint32Value: UInt32? {
        if case .uint32(let value) = self { return value }
        return nil
    }

    /// The strings an `as` holds; nil for other types.
    public var stringArrayValue: [String]? {
        guard case .array(.string, let elements) = self else { return nil }
        return elements.compactMap(\.stringValue)
    }

    /// The elements an array holds; nil for other types.
    public var arrayValue: [BusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }

    /// The value inside a `v`, or the value itself.
    public var unwrappingVariant: BusValue {
        if case .variant(let inner) = self { return inner.unwrappingVariant }
        return self
    }

    /// The fields of an `a{sv}` by name; nil for other types.
    public var variantDictionaryValue: [String: BusValue]? {
        guard case .dictionary(.string, .variant, let entries) = self else { return nil }
        var fields: [String: BusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            fields[key] = entry.value.unwrappingVariant
        }
        return fields
    }
}
