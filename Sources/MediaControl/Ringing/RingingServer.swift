import PulseAudio
import RouteKit

/// What ringing asks of a server besides the routing commands: loading and unloading the
/// combined sink that plays on the loudspeaker and the headset at once.
public protocol RingingServer: AudioServer {
    /// Loads the module `name` with `arguments`; returns its index.
    func loadModule(_ name: String, arguments: String) async throws -> UInt32
    /// Unloads the module at `index`.
    func unloadModule(_ index: UInt32) async throws
}

extension PulseClient: RingingServer {}
