import Foundation
import Glibc
import Testing

/// A session bus that accepts connections and never answers must not hang routectl: looking
/// for the daemon is bounded (2 s), and says so.
@Suite("routectl on a hung session bus")
struct HungBusTests {
    @Test("prefer on a bus that never answers exits 68 within seconds, saying the bus did not answer")
    func hungBus() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/bus"
            // A listening socket nobody accepts on: connecting succeeds, authentication never ends.
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(listener >= 0)
            defer { close(listener) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0 && listen(listener, 8) == 0)

            let clock = ContinuousClock()
            let start = clock.now
            let result = try await Executable.built("routectl").run(["prefer", "bluetooth"],
                                                                    environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + path])
            #expect(clock.now - start < .seconds(10), "bounded by 2 s, not sd-bus's 90 s authentication timeout")
            #expect(result.status == 68, "\(result.standardError)")
            #expect(result.standardError.contains("did not tell within 2 s whether the daemon runs"), "\(result.standardError)")
        }
    }
}
