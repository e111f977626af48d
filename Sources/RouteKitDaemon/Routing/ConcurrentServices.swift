import ServiceLifecycle

/// Services that start together and stop together, as one service of a `ServiceGroup`: on
/// graceful shutdown every one of them stops at once, not one after the other, so that their
/// stop takes as long as the longest of them (a frozen server costs each its own time limit,
/// not the sum). Returns when all have returned; the first error cancels the others and is
/// thrown once they have ended.
package struct ConcurrentServices: Service {
    /// The services, each in a child task.
    package let services: [any Service]

    /// Services that start and stop together, in this order.
    package init(services: [any Service]) {
        self.services = services
    }

    package func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { try await service.run() }
            }
            var failure: (any Error)?
            while let result = await group.nextResult() {
                // One that fails (a server that refused the start) ends the others, as a
                // service group would: they would otherwise wait for a shutdown nobody asks for.
                if case .failure(let error) = result, failure == nil {
                    failure = error
                    group.cancelAll()
                }
            }
            if let failure { throw failure }
        }
    }
}
