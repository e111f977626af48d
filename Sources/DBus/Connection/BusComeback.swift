/// Waits for a bus that went away, or has not answered yet, to come back, for whoever
/// reconnects to it: a bus on a socket file whose file is gone is waited for with inotify,
/// which costs nothing until the file is back (a restarted `dbus-daemon` makes it anew);
/// otherwise (a file there that refuses, an abstract socket) each wait sleeps, 100 ms first,
/// doubling up to `maximumDelay`. A pure timer of attempts: it never connects by itself.
public struct BusComeback: Sendable {
    /// The bus waited for.
    public let address: BusAddress
    /// The longest sleep between two attempts.
    public let maximumDelay: Duration
    private var delay: Duration = .milliseconds(100)

    /// Waits for `address`, sleeping at most `maximumDelay` between attempts.
    public init(address: BusAddress, maximumDelay: Duration = .seconds(5)) {
        self.address = address
        self.maximumDelay = maximumDelay
    }

    /// The next attempt may start: returns when the bus's socket appears, or after this
    /// wait's sleep. Throws `CancellationError` when the calling task is cancelled.
    public mutating func wait() async throws {
        if let socket = address.socketPath, try await SocketWatch.waitUntilPresent(socket) == .appeared {
            delay = .milliseconds(100)
            return
        }
        try await Task.sleep(for: delay)
        delay = min(delay * 2, maximumDelay)
    }

    /// An attempt worked: the next loss waits 100 ms first again.
    public mutating func reset() {
        delay = .milliseconds(100)
    }
}
