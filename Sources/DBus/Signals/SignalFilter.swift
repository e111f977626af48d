/// What a subscription takes, checked on a signal's header before any of its arguments is
/// read: its signature and its sender; and which entries of its `a{sv}` arguments are read at
/// all (the others are skipped by sd-bus unread).
///
/// ```swift
/// let filter = SignalFilter(signature: "sa{sv}as", wantedKeys: ["PlaybackStatus"]) { players.isOwner($0) }
/// let changes = try await connection.signals(matching: rule, filter: filter)
/// ```
///
/// A signal that does not pass is dropped unread, as is one over ``BusReadLimits/signals``.
public struct SignalFilter: Sendable {
    /// The arguments' signature a signal must have; nil takes any.
    public var signature: BusSignature?
    /// The keys of `a{sv}` arguments that are read; nil reads every entry.
    public var wantedKeys: Set<String>?
    /// Whether a signal from this unique name is taken; nil takes any. Called on the
    /// connection's thread for each signal that matched: it must be quick and never wait.
    public var acceptsSender: (@Sendable (String) -> Bool)?

    /// A filter from its parts; with none, every signal that matches the rule is read.
    public init(signature: BusSignature? = nil, wantedKeys: Set<String>? = nil,
                acceptsSender: (@Sendable (String) -> Bool)? = nil) {
        self.signature = signature
        self.wantedKeys = wantedKeys
        self.acceptsSender = acceptsSender
    }

    /// Takes every signal that matches the rule.
    public static let any = SignalFilter()

    /// Whether a signal with this header is read.
    func accepts(signature actual: String, sender: String?) -> Bool {
        if let signature, signature.rawValue != actual { return false }
        if let acceptsSender {
            guard let sender, acceptsSender(sender) else { return false }
        }
        return true
    }
}
