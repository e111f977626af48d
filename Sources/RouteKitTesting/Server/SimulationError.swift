import PulseAudio

/// A script asked a ``SimulatedServer`` for something impossible: a device name that is
/// taken, a card whose profile names a port it does not have, a stream on a device that
/// does not exist. It is the test's mistake, not the simulated server's answer (commands
/// answer with `PulseError`, as a real server does).
public struct SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
