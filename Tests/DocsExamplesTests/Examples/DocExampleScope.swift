import Logging
import MediaControl
import MPRIS
import PulseAudio
import RouteKit
import SoundServerSandbox

/// The names a doc fragment (a ```swift block without imports) uses without declaring them:
/// each fragment is compiled as an `async throws` method of this type, so these are in scope.
/// Nothing makes one: the examples are compiled, never run. A fragment may declare a name of
/// its own with the same spelling (a local shadows the property).
struct DocExampleScope: Sendable {
    /// A connected connection to the sound server.
    let client: PulseClient
    /// A running manager.
    let manager: AudioDeviceManager
    /// Where a monitor logs.
    let logger: Logger
    /// The session's MPRIS players, opened and running.
    let mprisPlayers: MPRISPlayers
    /// A running media guard.
    let mediaGuard: MediaGuard
    /// A player of the application's own (Docs/Media.md's in-process players).
    let player: ApplicationPlayer
    /// A softphone's process id.
    let softphonePID: UInt32
    /// A sandboxed server (Docs/Testing.md).
    let server: SandboxServer
    /// A test's own connection to `server`, to see its streams with.
    let observer: PulseClient
}

/// A media player of an embedding application's own, as a fragment knows it.
actor ApplicationPlayer {
    /// Stops the sound, keeping the position.
    func pause() {}
    /// Plays on from the position.
    func play() {}
}
