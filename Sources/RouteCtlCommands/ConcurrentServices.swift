import ServiceLifecycle

/// Services that start together and stop together, as one service of a `ServiceGroup`: on
/// graceful shutdown every one of them stops at once, not one after the other, so that their
/// stop takes as long as the longest of them (a frozen server costs each its own time limit,
/// not the sum). Returns when all have returned; the first error is thrown after the others end.
struct ConcurrentServices: Service {
    /// The services, each in a child task.
    let services: [any Service]

    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { try await service.run() }
            }
            var failure: (any Error)?
            while let result = await group.nextResult() {
                if case .failure(let error) = result, failure == nil { failure = error }
            }
            if let failure { throw failure }
        }
    }
}
