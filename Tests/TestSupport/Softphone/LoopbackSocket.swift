import Glibc

/// TCP and UDP on 127.0.0.1, as far as the softphone rig needs them: free ports for baresip
/// to listen on, and a connection to its control socket.
package enum LoopbackSocket {
    /// Ports for one baresip that are free on 127.0.0.1 just now: SIP on `sip` (UDP and TCP)
    /// and on `sip + 1` (TCP: baresip always adds a TLS transport there), its control socket
    /// on `control`, all different. The kernel picks them (from its ephemeral range) for
    /// sockets that are then closed, so another process can take one before baresip binds
    /// it: ``Softphone/start(_:server:)`` then starts it again on others.
    package static func baresipPorts() throws(LoopbackSocketError) -> BaresipPorts {
        for _ in 0..<20 {
            let sip = try freePort()
            guard sip < UInt16.max, (try? bind(type: SOCK_STREAM, port: sip + 1)) != nil else { continue }
            let control = try freePort()
            if control != sip && control != sip + 1 { return BaresipPorts(sip: sip, control: control) }
        }
        throw LoopbackSocketError(what: "no three ports free on 127.0.0.1 for baresip", code: EADDRINUSE)
    }

    /// A port that is free on 127.0.0.1 for both TCP and UDP just now (SIP listens on both):
    /// the kernel picks it for a TCP socket, which is then closed.
    package static func freePort() throws(LoopbackSocketError) -> UInt16 {
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

    /// Takes 127.0.0.1:`port` for TCP (listening) or UDP until the result is released: for a
    /// test, the process that takes a port the rig picked before baresip binds it.
    package static func take(_ port: UInt16, udp: Bool) throws(LoopbackSocketError) -> TakenPort {
        let descriptor = try bound(type: udp ? SOCK_DGRAM : SOCK_STREAM, port: port).descriptor
        if !udp && listen(descriptor, 1) != 0 {
            let code = errno
            close(descriptor)
            throw LoopbackSocketError(what: "listen on 127.0.0.1:\(port)", code: code)
        }
        return TakenPort(descriptor: descriptor)
    }

    /// Binds a socket of `type` to 127.0.0.1:`port` (0: any), closes it, and returns the port.
    private static func bind(type: __socket_type, port: UInt16) throws(LoopbackSocketError) -> UInt16 {
        let (descriptor, bound) = try bound(type: type, port: port)
        close(descriptor)
        return bound
    }

    /// A socket of `type` bound to 127.0.0.1:`port` (0: any), and the port it has.
    private static func bound(type: __socket_type, port: UInt16) throws(LoopbackSocketError) -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocketError(what: "socket", code: errno) }
        var address = loopback(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw LoopbackSocketError(what: "bind to 127.0.0.1:\(port)", code: code)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// A port held by a socket of the test's own until it is released (closed with it).
package final class TakenPort: Sendable {
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }
}

/// The ports one baresip listens on (``LoopbackSocket/baresipPorts()``).
package struct BaresipPorts: Sendable, Equatable {
    /// SIP over UDP and TCP; TLS takes the next port.
    package var sip: UInt16
    /// The `ctrl_tcp` module's.
    package var control: UInt16

    /// Ports for one baresip.
    package init(sip: UInt16, control: UInt16) {
        self.sip = sip
        self.control = control
    }
}

/// A socket call failed.
package struct LoopbackSocketError: Error, CustomStringConvertible {
    /// What was tried.
    package var what: String
    /// Its errno.
    package var code: Int32
    /// Both, for people.
    package var description: String { "\(what): \(String(cString: strerror(code)))" }
}
