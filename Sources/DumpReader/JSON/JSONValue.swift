import FoundationEssentials

/// A JSON value as a dump holds it. Numbers keep their text, objects their member order.
indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([JSONMember])

    /// A member's value, for an object; nil otherwise or when it has no such member.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, for a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, for an integral number.
    var integer: Int64? {
        if case .number(let text) = self { return Int64(text) }
        return nil
    }

    /// The number, for a number.
    var double: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The boolean, for `true` and `false`.
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, for an array.
    var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, for an object.
    var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether it is an object or holds one: what a JSON document of a dump is, unlike `[Out]`
    /// or `[    2.5]` in a text line.
    var containsObject: Bool {
        switch self {
        case .object: true
        case .array(let elements): elements.contains(where: \.containsObject)
        default: false
        }
    }

    /// The value as a property list value: strings as they are, numbers as written, booleans
    /// as `true`/`false`, arrays and objects as compact JSON; nil for `null`.
    var propertyValue: String? {
        switch self {
        case .string(let value): value
        case .null: nil
        default: jsonText
        }
    }

    /// Compact JSON text.
    var jsonText: String {
        switch self {
        case .string(let value): Self.quoted(value)
        case .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string, escaped by Foundation's encoder (no escaper of our own).
    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}

/// One member of a JSON object.
struct JSONMember: Sendable, Equatable {
    /// Its key.
    var key: String
    /// Its value.
    var value: JSONValue
}
