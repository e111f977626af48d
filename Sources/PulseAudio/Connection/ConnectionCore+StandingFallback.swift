import CPulseAudio

/// A ``FallbackConnection``'s standing order: armed from any thread, fired on libpulse's.
extension ConnectionCore {
    /// Arms `order` (loop lock held); only while ready, since a connection under way may be
    /// to a restarted server whose sinks are numbered anew.
    func armStandingFallback(_ order: StandingFallback?) {
        standingFallback = state == .ready ? order : nil
    }

    /// Sends the order's request if `event` is its sink's removal (loop thread, lock held,
    /// from the subscription callback before the event is passed on). Fire and forget: a
    /// fallback that went meanwhile is refused by the server, and whoever armed the order
    /// decides again from the events either way.
    func fireStandingFallback(for event: SubscriptionEvent, on context: OpaquePointer) {
        guard let order = standingFallback, event.facility == .sink, event.kind == .remove,
              event.index == order.sinkIndex else { return }
        standingFallback = nil
        if let operation = pa_context_set_default_sink(context, order.fallbackSink, nil, nil) {
            pa_operation_unref(operation)
        }
    }
}
