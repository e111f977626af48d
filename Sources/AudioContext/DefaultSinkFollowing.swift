import PulseAudio
import RouteKit

/// The default sink, followed event by event with the fewest reads: what volume capture
/// reads, and silent mode without an ``AudioDeviceManager`` (beside one, it follows the
/// manager's ``ServerMirror`` and reads nothing).
///
/// A change of the default sink's own state is one lookup of that sink; a server change
/// that leaves the default's name as it was needs no more than the server's information; only
/// a new default, a default that went, or a start reads the sinks' list (to find the sink the
/// name belongs to). Reading the list at every event put a follower's requests ahead of a
/// switch's on the shared connection, and read every sink again at every volume step.
package struct DefaultSinkFollowing: Sendable {
    /// The default sink's name at the last read (nil: none set, or not read yet).
    package private(set) var name: String?
    /// Its index, when the sinks listed it.
    package private(set) var index: UInt32?
    private var isRead = false

    /// Nothing read yet.
    package init() {}

    /// What a read found.
    package enum Reading: Sendable, Equatable {
        /// Nothing the follower depends on can have changed.
        case unchanged
        /// The default sink's name, and the sink itself when the server lists it.
        case read(name: String?, sink: SinkInfo?)
    }

    /// Whether `change` can change the reading: the server's defaults, the default sink itself,
    /// and a new sink while the default names none that is listed. Another sink coming or
    /// going cannot: if it becomes the default, the server says so.
    package func matters(_ change: SubscriptionEvent) -> Bool {
        switch change.facility {
        case .server: true
        case .sink: change.index == index || (change.kind == .new && index == nil)
        default: false
        }
    }

    /// Reads what `change` may have changed; nil (at start, after reconnecting) reads it all.
    /// A read that throws leaves nothing known: the next one reads it all.
    package mutating func read(after change: SubscriptionEvent?, from server: any AudioServer) async throws -> Reading {
        do {
            return try await readKnowing(change, from: server)
        } catch {
            forget()
            throw error
        }
    }

    /// Forgets what was read: the next read reads it all.
    package mutating func forget() {
        name = nil
        index = nil
        isRead = false
    }

    private mutating func readKnowing(_ change: SubscriptionEvent?, from server: any AudioServer) async throws -> Reading {
        guard isRead, let change else { return try await readAll(from: server) }
        switch change.facility {
        case .sink:
            if let index, change.index == index, change.kind == .change,
               let sink = try await server.sink(at: index), sink.name == name {
                return .read(name: name, sink: sink)
            }
        case .server:
            let info = try await server.serverInfo()
            if info.defaultSinkName == name { return .unchanged }
            return try await readAll(named: info.defaultSinkName, from: server)
        default:
            break
        }
        return try await readAll(from: server)
    }

    private mutating func readAll(from server: any AudioServer) async throws -> Reading {
        async let info = server.serverInfo()
        let sinks = try await server.sinks()
        return remember(try await info.defaultSinkName, among: sinks)
    }

    private mutating func readAll(named name: String?, from server: any AudioServer) async throws -> Reading {
        remember(name, among: try await server.sinks())
    }

    private mutating func remember(_ name: String?, among sinks: [SinkInfo]) -> Reading {
        let sink = name.flatMap { name in sinks.first { $0.name == name } }
        self.name = name
        index = sink?.index
        isRead = true
        return .read(name: name, sink: sink)
    }
}
