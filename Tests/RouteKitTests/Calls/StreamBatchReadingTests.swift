import ConcurrencySupport
@testable import RouteKit
import Testing

/// How followers read a burst's streams: a few by index, many as one list.
@Suite("Stream reading in batches")
struct StreamBatchReadingTests {
    /// A server of streams numbered as `present`, counting what it is asked.
    final class Streams: Sendable {
        let present: Set<UInt32>
        let asked = LockedValue<[String]>([])

        init(_ present: Set<UInt32>) { self.present = present }

        func read(_ indices: [UInt32]) async throws -> [(index: UInt32, stream: UInt32?)] {
            try await StreamBatchReading.read(indices, index: { $0 }, lookup: { index in
                self.asked.withLock { $0.append("#\(index)") }
                return self.present.contains(index) ? index : nil
            }, list: {
                self.asked.withLock { $0.append("list") }
                return self.present.sorted()
            })
        }
    }

    @Test("fewer than four streams are looked up one by one; a stream gone reads as nil; the order asked is kept")
    func few() async throws {
        let server = Streams([1, 2, 5])
        let read = try await server.read([5, 3, 1])
        #expect(read.map(\.index) == [5, 3, 1])
        #expect(read.map(\.stream) == [5, nil, 1])
        #expect(server.asked.withLock { $0.sorted() } == ["#1", "#3", "#5"])
    }

    @Test("from four streams on, one list answers for all; a stream the list lacks is gone")
    func many() async throws {
        let server = Streams([1, 2, 3, 5, 8, 13])
        let read = try await server.read([8, 2, 4, 13])
        #expect(read.map(\.index) == [8, 2, 4, 13])
        #expect(read.map(\.stream) == [8, 2, nil, 13])
        #expect(server.asked.withLock { $0 } == ["list"])
        #expect(StreamBatchReading.listFrom == 4)
    }
}
