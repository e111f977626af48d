import ConcurrencySupport
import PulseAudio

/// Followers waiting for the loop to read sinks again (``AudioDeviceManager/mirror(readingAgain:defaults:)``):
/// each is answered with the first mirror handed on after a turn that read its sinks.
struct Rereads: Sendable {
    private struct Waiter: Sendable {
        /// The sinks to read, by index; empty when the tracker knows none of the names.
        var sinks: Set<UInt32>
        var answer: OneShotValue<ServerMirror>
    }

    private var waiters: [Waiter] = []

    /// No follower waits.
    var isEmpty: Bool { waiters.isEmpty }

    /// A follower waits for the sinks `names` to be read again; returns their indices among
    /// `sinks` (the tracker's), which the loop looks up. A name the tracker does not know is
    /// not read: the server announces a sink before it can be named.
    mutating func add(_ names: Set<String>, _ answer: OneShotValue<ServerMirror>, among sinks: [UInt32: SinkInfo]) -> [UInt32] {
        let indices = sinks.values.filter { names.contains($0.name) }.map(\.index).sorted()
        waiters.append(Waiter(sinks: Set(indices), answer: answer))
        return indices
    }

    /// The turn read every sink but those in `unread`: the followers whose sinks it read get
    /// `mirror`, the others wait for a later turn.
    mutating func answer(with mirror: ServerMirror, exceptFor unread: Set<UInt32>) {
        waiters.removeAll { waiter in
            guard waiter.sinks.isDisjoint(with: unread) else { return false }
            waiter.answer.give(mirror)
            return true
        }
    }

    /// Nothing more will be read (disconnected, or the loop ends): every follower gets `mirror`.
    mutating func answerAll(with mirror: ServerMirror) {
        answer(with: mirror, exceptFor: [])
    }
}
