/// A read of one player's properties and process, asked for by ``PlayerTable``: the player
/// `name` as connection `owner`, the `generation`th read the table asked for (an answer to an
/// older read, or for an owner that has since changed, is dropped).
struct PlayerRead: Hashable, Sendable {
    /// The well-known name: `org.mpris.MediaPlayer2.mpv`.
    var name: String
    /// The unique name of the connection that owned it when the read was asked for: the reads
    /// go there, so that they never mix two owners.
    var owner: String
    /// Which read of the table's this is.
    var generation: UInt64
}

/// What a ``PlayerRead`` found.
enum PlayerReadOutcome: Hashable, Sendable {
    /// The player answered: its followed properties (and their problems), and its process.
    case read(PlayerUpdate, processID: UInt32?)
    /// It could not be read.
    case failed(PlayerReadFailure)
}

/// Why a player could not be read.
enum PlayerReadFailure: Hashable, Sendable, CustomStringConvertible {
    /// Its connection is not on the bus any more (a `NameOwnerChanged` says so too), or this
    /// module's connection has ended.
    case gone
    /// Its object has no `org.mpris.MediaPlayer2.Player` interface; the bus error's text.
    case noPlayerInterface(String)
    /// It did not answer within the time given.
    case timedOut(Duration)
    /// It answered with an error, or an answer of the wrong shape; the text.
    case failed(String)

    /// For the log.
    var description: String {
        switch self {
        case .gone: "it left the bus"
        case .noPlayerInterface(let error): "it has no \(MPRISNames.playerInterface) interface (\(error))"
        case .timedOut(let timeout): "it did not answer within \(timeout)"
        case .failed(let error): "reading it failed (\(error))"
        }
    }
}
