#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a dump file safely: only a regular file (a FIFO, a device such as `/dev/zero`, a
/// directory or a socket is refused before anything is read from it), and at most
/// ``sizeLimit`` bytes, so that a hostile path cannot make the reader wait or fill memory.
public enum DumpFile {
    /// The largest dump read: 16 MiB, far above any real paste (the largest in the corpus is
    /// under 100 kB), and the reader is linear, so reading this much takes about a second.
    public static let sizeLimit = 16 << 20

    /// The text of the file at `path`, invalid UTF-8 replaced.
    /// - Throws: ``DumpFileError`` when the file cannot be opened, is not a regular file, or
    ///   holds more than `limit` bytes.
    public static func read(atPath path: String, limit: Int = sizeLimit) throws(DumpFileError) -> String {
        // O_NONBLOCK: opening a FIFO that no one writes to must not wait.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .notARegularFile(path: path, kind: kind(of: status.st_mode))
        }
        guard Int(status.st_size) <= limit else { throw .tooLarge(path: path, limit: limit) }
        return String(decoding: try readAll(descriptor, path: path, limit: limit), as: UTF8.self)
    }

    /// Every byte up to `limit` (a file that grows past it while read is refused too).
    private static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(DumpFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(path: path, limit: limit) }
            bytes += chunk[..<count]
        }
    }

    /// What a file mode says the file is, in words.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}

/// Why a dump file was not read.
public enum DumpFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It could not be opened or read (`reason` is the system's).
    case cannotOpen(path: String, reason: String)
    /// It is a FIFO, a device, a directory or a socket: only regular files are dumps.
    case notARegularFile(path: String, kind: String)
    /// It holds more than `limit` bytes.
    case tooLarge(path: String, limit: Int)

    /// The message for the user.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot read \(path): \(reason)"
        case .notARegularFile(let path, let kind): "\(path) is \(kind), not a dump file"
        case .tooLarge(let path, let limit): "\(path) is larger than \(limit >> 20) MiB: not a dump"
        }
    }
}
