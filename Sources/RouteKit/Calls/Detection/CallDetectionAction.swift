/// What ``CallDetectionMachine`` decides: the calls that begin, change and end. Its driver
/// tells the world (``StreamCallDetector`` as ``DetectedCallEvent``s).
package enum CallDetectionAction: Hashable, Sendable {
    /// A playback and a capture stream of one application have run together for the rule's
    /// minimum duration.
    case callStarted(DetectedCall)
    /// A call's streams changed; the call as it is now.
    case callChanged(DetectedCall)
    /// A call's side has been gone for the rule's hold, or detection stopped.
    case callEnded(DetectedCall.ID)

    /// The event that tells it.
    package var event: DetectedCallEvent {
        switch self {
        case .callStarted(let call): .started(call)
        case .callChanged(let call): .changed(call)
        case .callEnded(let id): .ended(id)
        }
    }
}
