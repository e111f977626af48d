/// An answer to one method of an exported object, given on the connection's own thread as the
/// call is read, without handing it to a task: for a method that reads state the caller
/// already has published (a status), so that it is answered at once however busy the tasks
/// that answer other calls are.
///
/// ```swift
/// let status = DirectAnswer { _ in published.withLock { $0.map { [.string($0)] } } }
/// let object = try await connection.export(interface, at: path, properties: [:],
///                                          directAnswers: ["Status": status])
/// ```
///
/// The closure runs on the connection's thread with the call's arguments (already checked
/// against the method's signature and the read limits): it must not block, wait or call
/// back into the connection. It returns the reply's values (the method's result types), or
/// nil to have the call delivered to ``ExportedObject/calls`` as any other (when it cannot
/// answer yet). A call answered directly is not counted against a ``CallsInFlightLimit``:
/// it is never in flight.
public struct DirectAnswer: Sendable {
    let answer: @Sendable ([BusValue]) -> [BusValue]?

    /// An answer computed by `answer` from the call's arguments; nil delivers the call as usual.
    public init(_ answer: @escaping @Sendable (_ arguments: [BusValue]) -> [BusValue]?) {
        self.answer = answer
    }
}
