/// A stream handed on to one consumer, recording each element once the consumer asks for the
/// next: a consumer that handles each element before asking again (a follower's `for await`
/// loop) has then handled it. A test's server gives a follower this stream to know that the
/// follower has taken in an event before the test goes on, without waiting for time.
public final class HandledEvents<Element: Sendable>: Sendable {
    /// The elements the consumer has finished with, in order.
    public let handled = RecordedEvents<Element>()
    private let source: Source

    /// Hands on `stream`'s elements.
    public init(_ stream: AsyncStream<Element>) {
        source = Source(stream)
    }

    /// The stream to give the one consumer.
    public func stream() -> AsyncStream<Element> {
        let source = self.source
        let handled = self.handled
        return AsyncStream(unfolding: { await source.next(recordingIn: handled) })
    }

    private actor Source {
        private var iterator: AsyncStream<Element>.Iterator
        private var handedOut: Element?

        init(_ stream: AsyncStream<Element>) {
            iterator = stream.makeAsyncIterator()
        }

        /// Records the element handed out before (the consumer is done with it), then hands
        /// out the next.
        func next(recordingIn handled: RecordedEvents<Element>) async -> Element? {
            if let handedOut { await handled.append(handedOut) }
            var iterator = self.iterator
            let element = await iterator.next(isolation: self)
            self.iterator = iterator
            handedOut = element
            return element
        }
    }
}
