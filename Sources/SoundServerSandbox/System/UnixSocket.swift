import Glibc

/// Probes a Unix stream socket by connecting to it.
enum UnixSocket {
    /// Whether something listens at `path`: a socket file can exist before its server
    /// listens, or after it died, so only a successful `connect` counts.
    static func acceptsConnections(at path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { pathBytes -> Bool in
            guard bytes.count < pathBytes.count else { return false }
            pathBytes.copyBytes(from: bytes)
            return true
        }
        guard fits else { return false }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
