/// How work raced against a deadline ended.
package enum DeadlineOutcome<Value: Sendable>: Sendable {
    /// The work ended first, with this value.
    case finished(Value)
    /// The deadline came first and the work was cancelled; `late` is what it returned once
    /// cancelled, nil if it threw (a reading cancelled before its answer). Work that takes
    /// something and cannot put it back (a batch from a queue) returns it here, so that
    /// nothing is lost to the clock.
    case deadlinePassed(late: Value?)

    /// The value of work that ended before the deadline; nil when the deadline came first.
    package var value: Value? {
        if case .finished(let value) = self { value } else { nil }
    }
}

/// Runs `body` in a child task until `deadline`: the one way RouteKit bounds work by time.
/// When the deadline comes first the child is cancelled and its end awaited (structured:
/// nothing outlives the call), and the outcome is ``DeadlineOutcome/deadlinePassed(late:)``.
/// An error `body` throws before the deadline is thrown; one it throws after being cancelled
/// is not (the deadline is the outcome). When the calling task is cancelled, `body` is
/// cancelled with it and its own outcome is returned. A deadline already past does not start
/// `body`; the caller still suspends once, so that a loop handed a past deadline by mistake
/// slows to the pace of its executor rather than holding its thread (the engine's loop runs
/// on libpulse's, whose answers it would then never get).
package func withDeadline<Value: Sendable, Failure: Error>(
    _ deadline: ContinuousClock.Instant,
    _ body: @escaping @Sendable () async throws(Failure) -> Value
) async throws(Failure) -> DeadlineOutcome<Value> {
    guard ContinuousClock.now < deadline else {
        await Task.yield()
        return .deadlinePassed(late: nil)
    }
    let (first, second) = await withTaskGroup(of: DeadlineArrival<Value, Failure>.self) { group in
        group.addTask {
            do throws(Failure) { return .work(.success(try await body())) } catch { return .work(.failure(error)) }
        }
        group.addTask {
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return .clock(passed: false) }
            return .clock(passed: true)
        }
        // Both children always return, so both arrivals are there.
        let first = await group.next() ?? .clock(passed: false)
        group.cancelAll()
        let second = await group.next() ?? .clock(passed: false)
        return (first, second)
    }
    switch (first, second) {
    case (.work(let result), _), (.clock(passed: false), .work(let result)):
        return .finished(try result.get())
    case (.clock(passed: true), .work(let result)):
        return .deadlinePassed(late: try? result.get())
    case (.clock, .clock):
        preconditionFailure("a deadline race has one clock")
    }
}

/// What ended first in ``withDeadline(_:_:)``.
private enum DeadlineArrival<Value: Sendable, Failure: Error>: Sendable {
    case work(Result<Value, Failure>)
    /// The clock: `passed` when the deadline came, false when the sleep was cancelled.
    case clock(passed: Bool)
}

/// `body`'s value when it ends before `deadline` without throwing; nil when it throws or the
/// deadline comes first (``withDeadline(_:_:)``). For requests a stop must not wait on
/// beyond its bound: a frozen server (SIGSTOP) keeps its socket open and answers nothing.
package func untilDeadline<Value: Sendable>(_ deadline: ContinuousClock.Instant,
                                           _ body: @escaping @Sendable () async throws -> Value) async -> Value? {
    (try? await withDeadline(deadline, body))?.value
}
