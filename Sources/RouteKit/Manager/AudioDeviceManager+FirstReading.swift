import PulseAudio

extension AudioDeviceManager {
    /// Returns once the manager is past reading the server for the first time: connected
    /// (its devices known), or told that it cannot connect (reconnecting, failed, shut down).
    /// Returns at once when that is so already. A caller that answers for the devices (the
    /// daemon's D-Bus API, started by bus activation while the manager still connects) awaits
    /// it first, so that a request arriving in that window is decided on the server's devices
    /// rather than refused for want of any. Returns early when the task is cancelled.
    public func pastFirstReading() async {
        guard Self.isReading(state.connection) else { return }
        for await event in events() {
            switch event {
            case .state(let state) where !Self.isReading(state.connection): return
            case .connectionChanged(let connection) where !Self.isReading(connection): return
            default: continue
            }
        }
    }

    /// Whether `connection` is before the first reading's end: not started yet, or connecting.
    private static func isReading(_ connection: ConnectionState) -> Bool {
        switch connection {
        case .idle, .connecting: true
        case .ready, .reconnecting, .failed, .shutDown: false
        }
    }
}
