import CPulseAudio

/// The one error every PulseAudio call throws (besides `CancellationError`): the server's
/// reason, as `pa_strerror` words it, and what was asked when it happened.
///
/// ```swift
/// do { try await client.setDefaultSink("nope") }
/// catch let error as PulseError where error.code == .noSuchEntity { ... }
/// ```
public struct PulseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A libpulse error code (`pa_error_code_t`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric `PA_ERR_*` value.
        public let rawValue: Int32

        /// Wraps a numeric `PA_ERR_*` value.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        init(_ code: pa_error_code_t) { self.rawValue = Int32(bitPattern: code.rawValue) }

        /// Access denied (`PA_ERR_ACCESS`).
        public static let accessDenied = Code(PA_ERR_ACCESS)
        /// Unknown command (`PA_ERR_COMMAND`).
        public static let unknownCommand = Code(PA_ERR_COMMAND)
        /// Invalid argument (`PA_ERR_INVALID`).
        public static let invalidArgument = Code(PA_ERR_INVALID)
        /// The entity (sink, port, profile, module...) exists already (`PA_ERR_EXIST`).
        public static let alreadyExists = Code(PA_ERR_EXIST)
        /// No such entity: a sink, source, port, card, profile or stream the server does not know (`PA_ERR_NOENTITY`).
        public static let noSuchEntity = Code(PA_ERR_NOENTITY)
        /// The server refused the connection (`PA_ERR_CONNECTIONREFUSED`).
        public static let connectionRefused = Code(PA_ERR_CONNECTIONREFUSED)
        /// Protocol error (`PA_ERR_PROTOCOL`).
        public static let protocolError = Code(PA_ERR_PROTOCOL)
        /// The server did not answer in time (`PA_ERR_TIMEOUT`).
        public static let timeout = Code(PA_ERR_TIMEOUT)
        /// The connection ended: the server died, or the client was shut down (`PA_ERR_CONNECTIONTERMINATED`).
        public static let connectionTerminated = Code(PA_ERR_CONNECTIONTERMINATED)
        /// The client is not in a state to do this, typically not connected (`PA_ERR_BADSTATE`).
        public static let badState = Code(PA_ERR_BADSTATE)
        /// The module could not be initialised (`PA_ERR_MODINITFAILED`).
        public static let moduleInitFailed = Code(PA_ERR_MODINITFAILED)
        /// The server does not support this (`PA_ERR_NOTSUPPORTED`).
        public static let notSupported = Code(PA_ERR_NOTSUPPORTED)
        /// The server has no implementation for this, as for a port switch on a device
        /// without ports (`PA_ERR_NOTIMPLEMENTED`).
        public static let notImplemented = Code(PA_ERR_NOTIMPLEMENTED)
        /// An input/output error, as Bluetooth cards answer a profile that is not connected (`PA_ERR_IO`).
        public static let inputOutput = Code(PA_ERR_IO)
        /// The server answered with something the client could not use (`PA_ERR_INTERNAL`).
        public static let internalError = Code(PA_ERR_INTERNAL)
        /// The server name was invalid or could not be resolved (`PA_ERR_INVALIDSERVER`).
        public static let invalidServer = Code(PA_ERR_INVALIDSERVER)

        /// libpulse's own words for this code (`pa_strerror`).
        public var description: String {
            guard let text = pa_strerror(rawValue) else { return "error \(rawValue)" }
            return String(cString: text)
        }
    }

    /// What went wrong, as a libpulse error code.
    public var code: Code
    /// Why, in words: the server's reason (`pa_strerror`) unless RouteKit knows better.
    public var reason: String
    /// What was asked, for example `set default sink to "bt_headset"`.
    public var operation: String

    /// An error with `code`, for `operation`; `reason` defaults to `pa_strerror(code)`.
    public init(_ code: Code, operation: String, reason: String? = nil) {
        self.code = code
        self.operation = operation
        self.reason = reason ?? code.description
    }

    /// `<operation>: <reason>`, ready for a log line or a terminal.
    public var description: String { "\(operation): \(reason)" }
}
