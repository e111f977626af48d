/// Netstrings (`<length>:<bytes>,`), the framing of baresip's `ctrl_tcp` module: an encoder,
/// and a decoder fed bytes as they arrive that hands back each whole message.
public enum Netstring {
    /// `payload` framed as one netstring.
    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        Array("\(payload.count):".utf8) + payload + Array(",".utf8)
    }

    /// A decoder: bytes go in as they come, whole payloads come out in order.
    public struct Decoder: Sendable {
        private var buffer: [UInt8] = []

        /// Nothing buffered yet.
        public init() {}

        /// Adds `bytes` and returns the payloads now complete; a partial one is kept for the
        /// next call. Throws ``Malformed`` on bytes that are no netstring (the stream cannot
        /// be resynchronised after that).
        public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Malformed) -> [[UInt8]] {
            buffer.append(contentsOf: bytes)
            var payloads: [[UInt8]] = []
            var start = 0
            while true {
                let rest = buffer[start...]
                let colon = rest.firstIndex(of: UInt8(ascii: ":"))
                let digits = rest[..<(colon ?? rest.endIndex)]
                // A length has one to nine digits; without its colon yet, it may still be coming.
                guard digits.count <= 9, digits.allSatisfy(Self.isDigit), colon == nil || !digits.isEmpty else {
                    throw Malformed(bytes: Array(rest.prefix(40)))
                }
                guard let colon else { break }
                let end = colon + 1 + digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                guard end < buffer.count else { break }
                guard buffer[end] == UInt8(ascii: ",") else { throw Malformed(bytes: Array(rest.prefix(40))) }
                payloads.append(Array(buffer[(colon + 1)..<end]))
                start = end + 1
            }
            buffer.removeFirst(start)
            return payloads
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Bytes that are no netstring.
    public struct Malformed: Error, CustomStringConvertible {
        /// The first bytes from where framing broke.
        public var bytes: [UInt8]
        /// Says so, with those bytes.
        public var description: String { "not a netstring: \(String(decoding: bytes, as: UTF8.self))" }
    }
}
