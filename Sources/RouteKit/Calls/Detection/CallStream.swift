import PulseAudio

/// One stream as call detection sees it: a sink input (playback) or a source output
/// (capture), with what says whose it is and whether it runs.
package struct CallStream: Hashable, Sendable {
    /// Playback (a sink input) or capture (a source output).
    package enum Direction: Hashable, Sendable { case playback, capture }

    /// A stream's identity on the server: sink inputs and source outputs are numbered apart.
    package struct Key: Hashable, Sendable, CustomStringConvertible {
        /// Its direction.
        package var direction: Direction
        /// The server's index in that direction.
        package var index: UInt32

        /// The key of the stream `index` in `direction`.
        package init(_ direction: Direction, _ index: UInt32) {
            self.direction = direction
            self.index = index
        }

        /// `playback 12` or `capture 7`.
        package var description: String { "\(direction) \(index)" }
    }

    /// Its key.
    package var key: Key
    /// The client that owns it, nil for none (a module's stream).
    package var client: UInt32?
    /// Whether its client has corked (paused) it.
    package var isCorked: Bool
    /// Its property list.
    package var properties: [String: String]

    /// A stream from its parts.
    package init(_ key: Key, client: UInt32?, isCorked: Bool, properties: [String: String]) {
        self.key = key
        self.client = client
        self.isCorked = isCorked
        self.properties = properties
    }

    /// A playing stream.
    package init(_ stream: SinkInputInfo) {
        self.init(Key(.playback, stream.index), client: stream.client, isCorked: stream.isCorked, properties: stream.properties)
    }

    /// A recording stream.
    package init(_ stream: SourceOutputInfo) {
        self.init(Key(.capture, stream.index), client: stream.client, isCorked: stream.isCorked, properties: stream.properties)
    }

    /// The application it belongs to: its process when it names one, else its client, else
    /// its application name; nil when it says none of these (it can be no one's call). A
    /// softphone may open its playback and its capture on two connections (two clients): the
    /// process id puts them together.
    package var owner: Owner? {
        if let pid = properties["application.process.id"].flatMap(Int32.init) { return .process(pid) }
        if let client { return .client(client) }
        if let name = properties["application.name"] { return .name(name) }
        return nil
    }

    /// The application as the call reports it.
    package var application: DetectedApplication {
        DetectedApplication(name: properties["application.name"],
                            processID: properties["application.process.id"].flatMap(Int32.init),
                            processBinary: properties["application.process.binary"])
    }

    /// Who owns a stream, as far as the server says.
    package enum Owner: Hashable, Sendable {
        case process(Int32)
        case client(UInt32)
        case name(String)
    }
}
