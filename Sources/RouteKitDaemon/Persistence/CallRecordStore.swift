import FoundationEssentials
import RouteKit

/// Where the engine's memory between two commands run without the daemon is kept
/// (``RouteMemory``: call audio, the call's speaker toggle and choice, the microphone's mute,
/// and the profiles and default source the call changed), so that `routectl call end` in
/// another process puts back what `routectl call start` changed, as the engine decides it:
/// `$XDG_RUNTIME_DIR/routekit/`, one file per sound server (a call lasts no longer than the
/// session), written atomically, user-only. No file: nothing to remember.
package struct CallRecordStore: Sendable {
    /// The record's file.
    package let path: String

    /// The store for the server named `server` (its address, or `default`); nil without
    /// `XDG_RUNTIME_DIR`.
    package static func standard(server: String, environment: [String: String]) -> CallRecordStore? {
        guard let runtime = XDGDirectory.runtime.path(environment: environment) else { return nil }
        return CallRecordStore(path: runtime + "/routekit/call-\(fingerprint(server)).json")
    }

    /// The memory; empty when there is none (or the file is unusable: it is then ignored).
    package func read() -> RouteMemory {
        guard let text = try? SmallTextFile.read(atPath: path),
              let memory = try? JSONDecoder().decode(RouteMemory.self, from: Data(text.utf8)) else { return RouteMemory() }
        return memory
    }

    /// Keeps `memory`.
    package func write(_ memory: RouteMemory) throws(AtomicFile.Failure) {
        let data = (try? JSONEncoder().encode(memory)) ?? Data()
        try AtomicFile.write(Array(data), toPath: path)
    }

    /// Forgets the memory: nothing is left to go on from.
    package func remove() throws(AtomicFile.Failure) {
        try AtomicFile.remove(atPath: path)
    }

    /// FNV-1a of the server's address, in hex: a file name for any address.
    package static func fingerprint(_ server: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in server.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
