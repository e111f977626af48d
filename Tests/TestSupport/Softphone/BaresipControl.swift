import Foundation
import Glibc
import Synchronization

/// A connection to one baresip's `ctrl_tcp` module on 127.0.0.1: commands go out as
/// netstrings of JSON; events and responses come back the same way and are handed to
/// ``messages`` by a thread that blocks in `read(2)`.
///
/// ``shutdown()`` ends it (the blocked read returns); the descriptor is closed with the last
/// reference, which the thread holds until it has returned, so no other descriptor reusing
/// its number is ever read or shut down.
final class BaresipControl: Sendable {
    /// Every message baresip sends, in order; ends when the connection does.
    let messages: AsyncStream<BaresipMessage>
    private let descriptor: Int32
    private let continuation: AsyncStream<BaresipMessage>.Continuation
    private let nextToken = Atomic<Int>(1)

    /// Connects to the control socket at `port` and starts reading.
    init(port: UInt16) throws {
        descriptor = try LoopbackSocket.connect(port: port)
        (messages, continuation) = AsyncStream.makeStream(of: BaresipMessage.self)
        let thread = Thread { [self] in readUntilClosed() }
        thread.name = "baresip-ctrl-\(port)"
        thread.start()
    }

    deinit { close(descriptor) }

    /// Sends `command` (a menu command: `dial`, `hangup`, …) with `params`, and returns the
    /// token its response will carry.
    func send(_ command: String, params: String = "") throws -> String {
        let token = String(nextToken.wrappingAdd(1, ordering: .relaxed).oldValue)
        var bytes = Netstring.encode(BaresipMessage.command(command, params: params, token: token))
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw LoopbackSocketError(what: "sending \(command) to baresip", code: errno) }
            bytes.removeFirst(written)
        }
        return token
    }

    /// Ends the connection: the reading thread returns and ``messages`` ends.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// The thread's body: reads until end of file or an error, decoding as it goes.
    private func readUntilClosed() {
        var decoder = Netstring.Decoder()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        defer { continuation.finish() }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0, let payloads = try? decoder.feed(buffer[..<count]) else { return }
            for payload in payloads {
                if let message = BaresipMessage(json: payload) { continuation.yield(message) }
            }
        }
    }
}
