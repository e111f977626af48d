import CSystemdBus

/// The element type of an array of numbers (fixed-size D-Bus types), which sd-bus hands over
/// in place with `sd_bus_message_read_array`: its code, its size on the wire, and how to read
/// one element from the array's bytes.
struct FixedArray {
    /// The type code, as sd-bus takes it.
    let code: CChar
    /// The element's signature.
    let signature: BusSignature
    /// Bytes per element on the wire.
    let stride: Int

    /// Nil when `elementCode` is not one fixed-size type (`y b n q i u x t d`).
    init?(elementCode: String) {
        let strides: [String: Int] = ["y": 1, "b": 4, "n": 2, "q": 2, "i": 4, "u": 4, "x": 8, "t": 8, "d": 8]
        guard let stride = strides[elementCode], let ascii = elementCode.utf8.first else { return nil }
        self.code = CChar(bitPattern: ascii)
        self.signature = BusSignature(rawValue: elementCode)
        self.stride = stride
    }

    /// Element `index` of the array at `bytes`.
    func value(at index: Int, in bytes: UnsafeRawPointer) -> BusValue {
        let offset = index * stride
        switch signature {
        case .byte: return .byte(bytes.load(fromByteOffset: offset, as: UInt8.self))
        case .boolean: return .boolean(bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self) != 0)
        case .int16: return .int16(bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
        case .uint16: return .uint16(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        case .int32: return .int32(bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
        case .uint32: return .uint32(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        case .int64: return .int64(bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        case .uint64: return .uint64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        default: return .double(bytes.loadUnaligned(fromByteOffset: offset, as: Double.self))
        }
    }
}
