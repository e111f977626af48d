/// One `struct input_event` from an evdev device (`/dev/input/eventN`), as a 64-bit kernel
/// writes it: a `timeval` (two 8-byte longs), `__u16 type`, `__u16 code`, `__s32 value`:
/// 24 bytes, in the machine's byte order.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    /// The size of one record.
    public static let size = 24

    /// `EV_SYN`: the end of a group of changes (`SYN_REPORT` is code 0).
    public static let synchronization: UInt16 = 0x00
    /// `EV_KEY`: a key or button.
    public static let key: UInt16 = 0x01
    /// `KEY_MUTE`.
    public static let keyMute: UInt16 = 113
    /// `KEY_VOLUMEDOWN`.
    public static let keyVolumeDown: UInt16 = 114
    /// `KEY_VOLUMEUP`.
    public static let keyVolumeUp: UInt16 = 115

    /// Seconds of the event's time stamp.
    public var seconds: Int64
    /// Microseconds of the event's time stamp.
    public var microseconds: Int64
    /// The event type (`EV_KEY`, `EV_SYN`, ...).
    public var type: UInt16
    /// The code within the type (`KEY_VOLUMEUP`, ...).
    public var code: UInt16
    /// For a key: 1 pressed, 2 auto-repeat, 0 released.
    public var value: Int32

    /// An event from its parts.
    public init(seconds: Int64 = 0, microseconds: Int64 = 0, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// The event in `record`, which holds exactly ``size`` bytes.
    init(record: UnsafeRawBufferPointer) {
        seconds = record.loadUnaligned(fromByteOffset: 0, as: Int64.self)
        microseconds = record.loadUnaligned(fromByteOffset: 8, as: Int64.self)
        type = record.loadUnaligned(fromByteOffset: 16, as: UInt16.self)
        code = record.loadUnaligned(fromByteOffset: 18, as: UInt16.self)
        value = record.loadUnaligned(fromByteOffset: 20, as: Int32.self)
    }

    /// The record's bytes as the kernel writes them (machine byte order).
    public var bytes: [UInt8] {
        var record = [UInt8](repeating: 0, count: Self.size)
        record.withUnsafeMutableBytes { buffer in
            buffer.storeBytes(of: seconds, toByteOffset: 0, as: Int64.self)
            buffer.storeBytes(of: microseconds, toByteOffset: 8, as: Int64.self)
            buffer.storeBytes(of: type, toByteOffset: 16, as: UInt16.self)
            buffer.storeBytes(of: code, toByteOffset: 18, as: UInt16.self)
            buffer.storeBytes(of: value, toByteOffset: 20, as: Int32.self)
        }
        return record
    }

    /// For example `type 1 code 115 value 1`.
    public var description: String { "type \(type) code \(code) value \(value)" }
}

