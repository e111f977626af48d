import Glibc

/// TCP and UDP on 127.0.0.1, as far as the softphone rig needs them: free ports for baresip
/// to listen on, and a connection to its control socket.
enum LoopbackSocket {
    /// A port that is free on 127.0.0.1 for both TCP and UDP just now (SIP listens on both):
    /// the kernel picks it for a TCP socket, which is then closed. Another process could take
    /// it before baresip does; baresip then fails to start and says so.
    static func freePort() throws(LoopbackSocketError) -> UInt16 {
        for _ in 0..<20 {
            let port = try bind(type: SOCK_STREAM, port: 0)
            if (try? bind(type: SOCK_DGRAM, port: port)) != nil { return port }
        }
        throw LoopbackSocketError(what: "no port free for both TCP and UDP on 127.0.0.1", code: EADDRINUSE)
    }

    /// A TCP connection to 127.0.0.1:`port`: its descriptor (close-on-exec, blocking).
    static func connect(port: UInt16) throws(LoopbackSocketError) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocketError(what: "socket", code: errno) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw LoopbackSocketError(what: "connect to 127.0.0.1:\(port)", code: code)
        }
        return descriptor
    }

    /// Binds a socket of `type` to 127.0.0.1:`port` (0: any), closes it, and returns the port.
    private static func bind(type: __socket_type, port: UInt16) throws(LoopbackSocketError) -> UInt16 {
        let descriptor = socket(AF_INET, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocketError(what: "socket", code: errno) }
        defer { close(descriptor) }
        var address = loopback(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw LoopbackSocketError(what: "bind to 127.0.0.1:\(port)", code: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// A socket call failed.
struct LoopbackSocketError: Error, CustomStringConvertible {
    /// What was tried.
    var what: String
    /// Its errno.
    var code: Int32
    /// Both, for people.
    var description: String { "\(what): \(String(cString: strerror(code)))" }
}
