import PulseAudio

/// Capturing what a piece of script makes the server announce.
extension SimulatedServer {
    /// The subscription events the server delivered while `body` ran, in order (they also
    /// reach every ``events()`` stream as usual). Every call of a simulated server delivers its
    /// events before it returns, so nothing needs waiting for; events caused meanwhile by
    /// other tasks are included.
    ///
    /// ```swift
    /// let emitted = try server.subscriptionEvents { try server.removeCard(named: "bluez_card.00_1B_66_AA_BB_CC") }
    /// ```
    public func subscriptionEvents(during body: () throws -> Void) rethrows -> [SubscriptionEvent] {
        let id = hub.startRecording()
        do {
            try body()
        } catch {
            _ = hub.stopRecording(id)
            throw error
        }
        return Self.subscriptions(in: hub.stopRecording(id))
    }

    /// The subscription events the server delivered while `body` ran, for a `body` that calls
    /// the server's commands.
    ///
    /// ```swift
    /// let emitted = try await server.subscriptionEvents { try await server.setCardProfile(card, profile: "off") }
    /// ```
    public func subscriptionEvents(during body: () async throws -> Void) async rethrows -> [SubscriptionEvent] {
        let id = hub.startRecording()
        do {
            try await body()
        } catch {
            _ = hub.stopRecording(id)
            throw error
        }
        return Self.subscriptions(in: hub.stopRecording(id))
    }

    private static func subscriptions(in events: [PulseEvent]) -> [SubscriptionEvent] {
        events.compactMap { event in
            if case .subscription(let subscription) = event { return subscription }
            return nil
        }
    }
}
