import DBus

/// Why asking an MPRIS player to pause or play failed: which player, which command, and what
/// went wrong.
///
/// ```
/// could not pause org.mpris.MediaPlayer2.mpv: it did not answer within 5 seconds
/// ```
public struct MPRISCommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A command of the player interface.
    public enum Command: String, Hashable, Sendable {
        /// `Pause`.
        case pause = "Pause"
        /// `Play`.
        case play = "Play"
    }

    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// No player of that name is on the bus (any more), or it left before answering.
        case gone
        /// It says it cannot (`CanPause` or `CanPlay` is false), so it was not asked.
        case notSupported
        /// It answered with an error.
        case refused(BusError)
        /// It did not answer in time (it is still on the bus).
        case timedOut(Duration)
        /// This module's bus connection has ended.
        case disconnected
        /// The asking task was cancelled before the answer came.
        case cancelled
    }

    /// The player's bus name.
    public var player: String
    /// What it was asked.
    public var command: Command
    /// What went wrong.
    public var reason: Reason

    /// An error from its parts.
    public init(player: String, command: Command, reason: Reason) {
        self.player = player
        self.command = command
        self.reason = reason
    }

    /// `could not pause NAME: REASON`, for people.
    public var description: String {
        let what: String
        switch reason {
        case .gone: what = "it is not on the bus"
        case .notSupported: what = "it says it cannot (Can\(command.rawValue) is false)"
        case .refused(let error): what = "it refused: \(error)"
        case .timedOut(let timeout): what = "it did not answer within \(timeout)"
        case .disconnected: what = "the bus connection has ended"
        case .cancelled: what = "the request was cancelled"
        }
        return "could not \(command.rawValue.lowercased()) \(player): \(what)"
    }
}
