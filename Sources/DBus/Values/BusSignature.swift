/// A D-Bus type signature, such as `s`, `as` or `a{sv}`.
///
/// ```swift
/// let devices: BusSignature = .array(.dictionary(key: .string, value: .variant))  // aa{sv}
/// ```
public struct BusSignature: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature as D-Bus writes it.
    public let rawValue: String

    /// Wraps a signature as D-Bus writes it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a signature as D-Bus writes it.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `y`.
    public static let byte: BusSignature = "y"
    /// `b`.
    public static let boolean: BusSignature = "b"
    /// `n`.
    public static let int16: BusSignature = "n"
    /// `q`.
    public static let uint16: BusSignature = "q"
    /// `i`.
    public static let int32: BusSignature = "i"
    /// `u`.
    public static let uint32: BusSignature = "u"
    /// `x`.
    public static let int64: BusSignature = "x"
    /// `t`.
    public static let uint64: BusSignature = "t"
    /// `d`.
    public static let double: BusSignature = "d"
    /// `s`.
    public static let string: BusSignature = "s"
    /// `o`.
    public static let objectPath: BusSignature = "o"
    /// `g`.
    public static let signature: BusSignature = "g"
    /// `v`.
    public static let variant: BusSignature = "v"

    /// `a` followed by the element's signature.
    public static func array(_ element: BusSignature) -> BusSignature { BusSignature(rawValue: "a" + element.rawValue) }

    /// `a{kv}`.
    public static func dictionary(key: BusSignature, value: BusSignature) -> BusSignature {
        BusSignature(rawValue: "a{" + key.rawValue + value.rawValue + "}")
    }

    /// `(...)`, the fields' signatures in order.
    public static func structure(_ fields: [BusSignature]) -> BusSignature {
        BusSignature(rawValue: "(" + fields.map(\.rawValue).joined() + ")")
    }

    /// Several complete types one after the other, as a method's arguments are.
    public static func sequence(_ types: [BusSignature]) -> BusSignature {
        BusSignature(rawValue: types.map(\.rawValue).joined())
    }

    /// The signature as D-Bus writes it.
    public var description: String { rawValue }
}
