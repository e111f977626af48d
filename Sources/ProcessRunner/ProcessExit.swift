import Dispatch
import Subprocess

/// Waiting, without a thread, until a child has exited: its pidfd becomes readable then.
enum ProcessExit {
    /// Returns once the process behind `processIdentifier` has exited (it is not reaped:
    /// swift-subprocess does that once its body returns). The dispatch source watching the
    /// pidfd is cancelled, and its cancellation handler has run, before this returns, so that
    /// the descriptor may be closed afterwards. Without a pidfd (Linux before 5.3) it returns
    /// at once: callers check ``available(for:)`` first.
    static func wait(for processIdentifier: ProcessIdentifier) async {
        let descriptor = processIdentifier.processDescriptor
        guard descriptor >= 0 else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor,
                                                       queue: DispatchQueue(label: "ProcessRunner exit"))
            source.setEventHandler { source.cancel() }
            source.setCancelHandler { continuation.resume() }
            source.activate()
        }
    }

    /// Whether exits can be awaited for this child: Linux 5.3 and later give it a pidfd.
    static func available(for processIdentifier: ProcessIdentifier) -> Bool {
        processIdentifier.processDescriptor >= 0
    }
}
