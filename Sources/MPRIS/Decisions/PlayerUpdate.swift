import DBus
import MediaControl

/// What a player said about the properties this module follows, in either of the two ways it
/// says it: the answer to a read, or a `PropertiesChanged` signal. A nil field is one it did
/// not mention, or mentioned with a value of the wrong type (then ``problems`` says so).
struct PlayerUpdate: Hashable, Sendable {
    /// `PlaybackStatus`.
    var status: PlaybackStatus?
    /// `CanPause`.
    var canPause: Bool?
    /// `CanPlay`.
    var canPlay: Bool?
    /// `Identity`, of the root interface.
    var identity: String?
    /// A followed property was named in `invalidated_properties`: its value must be read.
    var mustReread = false
    /// Values that could not be taken, for the log: `PlaybackStatus is u 1, not a string`.
    var problems: [String] = []

    /// Whether it says nothing this module follows.
    var isEmpty: Bool {
        status == nil && canPause == nil && canPlay == nil && identity == nil && !mustReread
    }

    /// `later` on top of this: what it says wins, and the problems of both are kept.
    func merged(with later: PlayerUpdate) -> PlayerUpdate {
        PlayerUpdate(status: later.status ?? status, canPause: later.canPause ?? canPause,
                     canPlay: later.canPlay ?? canPlay, identity: later.identity ?? identity,
                     mustReread: mustReread || later.mustReread, problems: problems + later.problems)
    }

    /// `player` with what this says applied.
    func applied(to player: MediaPlayer) -> MediaPlayer {
        var player = player
        if let status { player.status = status }
        if let canPause { player.canPause = canPause }
        if let canPlay { player.canPlay = canPlay }
        if let identity { player.identity = identity }
        return player
    }
}

extension PlayerUpdate {
    /// The followed properties of the player interface among `properties` (a `GetAll` answer
    /// or a signal's changed properties), checking each one's type. With `required`, a
    /// missing one is a problem too.
    init(playerProperties properties: [String: BusValue], required: Bool) {
        var update = PlayerUpdate()
        if let value = properties["PlaybackStatus"] {
            if case .string(let text) = value, let status = PlaybackStatus(rawValue: text) {
                update.status = status
            } else {
                update.problems.append("PlaybackStatus is \(value.signature.rawValue) \(value), not \"Playing\", \"Paused\" or \"Stopped\"")
            }
        } else if required {
            update.problems.append("it has no PlaybackStatus")
        }
        update.canPause = Self.flag("CanPause", in: properties, required: required, problems: &update.problems)
        update.canPlay = Self.flag("CanPlay", in: properties, required: required, problems: &update.problems)
        self = update
    }

    /// What a `PropertiesChanged` signal's arguments (`s interface, a{sv} changed, as
    /// invalidated`) say about the followed properties; nil when they are about another
    /// interface, or are not of that shape.
    init?(propertiesChanged arguments: [BusValue]) {
        guard arguments.count == 3, let interface = arguments[0].stringValue,
              let changed = arguments[1].variantDictionaryValue,
              let invalidated = arguments[2].stringArrayValue else { return nil }
        switch interface {
        case MPRISNames.playerInterface:
            self.init(playerProperties: changed, required: false)
            mustReread = !Set(invalidated).isDisjoint(with: ["PlaybackStatus", "CanPause", "CanPlay"])
        case MPRISNames.rootInterface:
            self.init()
            if let value = changed["Identity"] {
                if case .string(let identity) = value {
                    self.identity = identity
                } else {
                    problems.append("Identity is \(value.signature.rawValue) \(value), not a string")
                }
            }
            mustReread = invalidated.contains("Identity")
        default:
            return nil
        }
    }

    /// A boolean property, or nil (and a problem) when it has another type or is missing.
    private static func flag(_ name: String, in properties: [String: BusValue], required: Bool,
                             problems: inout [String]) -> Bool? {
        guard let value = properties[name] else {
            if required { problems.append("it has no \(name)") }
            return nil
        }
        guard let flag = value.boolValue else {
            problems.append("\(name) is \(value.signature.rawValue) \(value), not a boolean")
            return nil
        }
        return flag
    }
}
