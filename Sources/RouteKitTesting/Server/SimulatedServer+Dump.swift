import ConcurrencySupport
import DumpReader
import PulseAudio
import RouteKit
import Synchronization

extension SimulatedServer {
    /// A server holding what `dump` shows of a real machine: its cards (with their profiles
    /// and ports), sinks, sources and defaults, ready to be scripted like any other simulated
    /// server. Profiles that are not active create devices named as PulseAudio would name them
    /// (see the engine's `DumpImport` for the details of what a dump cannot tell).
    ///
    /// ```swift
    /// let server = SimulatedServer(dump: try ServerDump.parse(text).deduplicated())
    /// try await server.setCardProfile("bluez_card.70_BF_92_C9_F5_D0", profile: "handsfree_head_unit")
    /// ```
    public convenience init(dump: ServerDump, options: Options = Options()) {
        self.init(options: options)
        state.withLock { server in
            server.simulation = DumpImport.state(from: dump, options: options, cookie: Self.initialCookie)
        }
    }
}
