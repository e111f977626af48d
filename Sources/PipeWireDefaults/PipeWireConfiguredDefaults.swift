import FoundationEssentials
import ProcessRunner
import RouteKit

/// Reads the user's configured defaults from PipeWire's `default` metadata, with
/// `pw-metadata -n default 0`: the keys `default.configured.audio.sink` and
/// `default.configured.audio.source`, whose values are SPA JSON objects such as
/// `{ "name": "usb_headset" }`. A missing key means that nothing is configured (nil).
///
/// Give it to ``AudioDeviceManager`` on PipeWire so that ``AudioDeviceManager/stop()`` puts
/// back exactly the configured default the user had, or none:
///
/// ```swift
/// let manager = AudioDeviceManager(server: client, configuredDefaults: PipeWireConfiguredDefaults())
/// ```
///
/// Each read runs `pw-metadata` once, with ``environment`` (so that it reaches the same
/// PipeWire as the PulseAudio client) and kills it if it has not finished within ``timeout``.
/// Failures are ``Failure`` values that say what went wrong.
public struct PipeWireConfiguredDefaults: ConfiguredDefaultsStore {
    /// The metadata key of the configured default sink.
    static let sinkKey = "default.configured.audio.sink"
    /// The metadata key of the configured default source.
    static let sourceKey = "default.configured.audio.source"
    /// The metadata key of the default sink in use (WirePlumber's choice, configured or not).
    package static let effectiveSinkKey = "default.audio.sink"
    /// The metadata key of the default source in use.
    package static let effectiveSourceKey = "default.audio.source"

    /// The complete environment `pw-metadata` runs with; nil runs it with this process's.
    /// `PIPEWIRE_RUNTIME_DIR`, `XDG_RUNTIME_DIR` and `PIPEWIRE_REMOTE` choose the PipeWire
    /// it reaches.
    public var environment: [String: String]?
    /// How long `pw-metadata` may run before it is killed and the read fails with
    /// ``Failure/timedOut(after:)`` (a frozen PipeWire never answers).
    public var timeout: Duration
    /// The program to run: a path with a `/`, or a name looked up in the `PATH` of
    /// ``environment`` (of this process when it has none).
    public var executable: String

    /// A reader.
    ///
    /// - Parameters:
    ///   - environment: the environment to run `pw-metadata` with, whole; nil (the default)
    ///     inherits this process's. A sandboxed server's environment (its runtime directory)
    ///     makes it read that server's metadata.
    ///   - timeout: how long `pw-metadata` may run before it is killed.
    ///   - executable: `pw-metadata`, or the path of a program that behaves like it.
    public init(environment: [String: String]? = nil, timeout: Duration = .seconds(5),
                executable: String = "pw-metadata") {
        self.environment = environment
        self.timeout = timeout
        self.executable = executable
    }

    /// Runs `pw-metadata -n default 0` and returns the configured defaults it shows. Throws
    /// ``Failure`` when the program is missing, fails, outlives ``timeout``, or prints what
    /// cannot be read; `CancellationError` (after killing it) when the task is cancelled.
    public func configuredDefaults() async throws -> ConfiguredDefaults {
        try await defaults(under: (sink: Self.sinkKey, source: Self.sourceKey))
    }

    /// Runs `pw-metadata -n default 0` and returns the defaults in use, as WirePlumber chose
    /// them (`default.audio.sink`, `default.audio.source`), configured or not: what a client
    /// connecting now reads as the server's defaults. A long-lived pipewire-pulse connection can
    /// have missed a change of them (``AudioDeviceManager/reconcileDefaultSink(seenElsewhere:)``).
    /// Throws as ``configuredDefaults()`` does.
    public func effectiveDefaults() async throws -> ConfiguredDefaults {
        try await defaults(under: (sink: Self.effectiveSinkKey, source: Self.effectiveSourceKey))
    }

    /// Runs `pw-metadata -n default 0` once and reads the names under `keys`.
    private func defaults(under keys: (sink: String, source: String)) async throws -> ConfiguredDefaults {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let path = try Self.locate(executable, in: environment)
        let run = try await Self.run([path, "-n", "default", "0"], environment: environment, timeout: timeout)
        return try Self.parse(run.standardOutput, keys: keys)
    }

    /// Writes `default.configured.audio.sink` (`output`) or `.source` with
    /// `pw-metadata -n default 0 KEY '{ "name": "NAME" }' Spa:String:JSON`, or removes it
    /// (`-d`) for nil. WirePlumber keeps a configured default whose device is absent, and
    /// pipewire-pulse refuses to set one: this is how such a choice is put back.
    public func configure(_ name: String?, output: Bool) async throws {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let path = try Self.locate(executable, in: environment)
        let key = output ? Self.sinkKey : Self.sourceKey
        let arguments = name.map { ["-n", "default", "0", key, "{ \"name\": \"\(Self.jsonEscaped($0))\" }", "Spa:String:JSON"] }
            ?? ["-d", "-n", "default", "0", key]
        _ = try await Self.run([path] + arguments, environment: environment, timeout: timeout)
    }

    /// `name` as the inside of a JSON string.
    static func jsonEscaped(_ name: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
