import PulseAudio
@testable import RouteKitTesting
import Testing

@Suite("Event coalescing within one main-loop iteration (core-subscribe.c)")
struct SubscriptionQueueTests {
    @Test("a change after a queued new or change of the same object is dropped")
    func changeAfterNew() {
        var queue = SubscriptionQueue()
        queue.post(.sink, .change, 0)
        queue.post(.sink, .new, 0)
        queue.post(.sink, .change, 0)
        queue.post(.sink, .change, 1)
        queue.post(.server, .change, UInt32.max)
        queue.post(.server, .change, UInt32.max)
        #expect(queue.drain() == [.change(.sink, 0), .new(.sink, 0), .change(.sink, 1), .serverChange])
    }

    @Test("a remove drops every queued event of the object and is queued itself")
    func removeDropsEarlierEvents() {
        var queue = SubscriptionQueue()
        queue.post(.sink, .new, 3)
        queue.post(.source, .change, 3)
        queue.post(.sink, .change, 4)
        queue.post(.sink, .remove, 3)
        #expect(queue.drain() == [.change(.source, 3), .change(.sink, 4), .remove(.sink, 3)])
        #expect(queue.drain().isEmpty)
    }
}
