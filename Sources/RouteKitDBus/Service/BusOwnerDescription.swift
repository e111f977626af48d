import DBus
import Glibc

/// Who owns a bus name, for messages: `callaudiod (pid 1234)`.
enum BusOwnerDescription {
    /// The owner's command name and pid, as the bus and /proc tell; nil when it cannot tell.
    static func describe(ownerOf name: String, on connection: BusConnection) async -> String? {
        guard let pid = try? await connection.processID(ofOwnerOf: name) else { return nil }
        guard let command = commandName(of: pid) else { return "pid \(pid)" }
        return "\(command) (pid \(pid))"
    }

    /// /proc/PID/comm, without its newline.
    static func commandName(of pid: UInt32) -> String? {
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return trimmed.isEmpty ? nil : trimmed
    }
}
