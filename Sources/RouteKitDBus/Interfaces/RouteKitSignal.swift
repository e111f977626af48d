import DBus
import RouteKit

/// A signal of `io.github.routekit.RouteKit1` with its arguments as values: the interface's
/// declarations (``Kind/declaration``) and what the daemon emits (``arguments``) come from
/// this one type, so that a signal cannot be emitted under a name or with arguments the
/// interface does not declare.
package enum RouteKitSignal: Hashable, Sendable {
    /// The route moved: the devices' ids (empty for none) and why.
    case routeChanged(from: AudioDevice.ID?, to: AudioDevice.ID?, reason: RouteChangeReason)
    /// A switch to `device` failed.
    case switchFailed(device: AudioDevice.ID, failure: SwitchFailure)
    /// The usable devices changed.
    case devicesChanged([AudioDevice])
    /// A volume button was pressed while capture was on.
    case volumeButtonPressed(VolumeButtonPress)
    /// Players were paused (and their streams muted).
    case mediaPaused(players: [String], reason: String)
    /// Players RouteKit paused were asked to play again.
    case mediaResumed(players: [String], reason: String)

    /// The signals, without their values.
    package enum Kind: CaseIterable, Sendable {
        case routeChanged, switchFailed, devicesChanged, volumeButtonPressed, mediaPaused, mediaResumed

        /// The signal's member name on the bus.
        package var member: String {
            switch self {
            case .routeChanged: "RouteChanged"
            case .switchFailed: "SwitchFailed"
            case .devicesChanged: "DevicesChanged"
            case .volumeButtonPressed: "VolumeButtonPressed"
            case .mediaPaused: "MediaPaused"
            case .mediaResumed: "MediaResumed"
            }
        }

        /// What the interface declares: the name, and each argument's name and type.
        package var declaration: BusSignal {
            let players = BusArgument("players", .array(.string))
            return switch self {
            case .routeChanged:
                BusSignal(member, arguments: [BusArgument("from", .string), BusArgument("to", .string), BusArgument("reason", .string)])
            case .switchFailed:
                BusSignal(member, arguments: [BusArgument("device", .string), BusArgument("step", .string),
                                              BusArgument("message", .string)])
            case .devicesChanged:
                BusSignal(member, arguments: [BusArgument("devices", .array(.dictionary(key: .string, value: .variant)))])
            case .volumeButtonPressed:
                BusSignal(member, arguments: [BusArgument("button", .string)])
            case .mediaPaused, .mediaResumed:
                BusSignal(member, arguments: [players, BusArgument("reason", .string)])
            }
        }
    }

    /// Which signal it is.
    package var kind: Kind {
        switch self {
        case .routeChanged: .routeChanged
        case .switchFailed: .switchFailed
        case .devicesChanged: .devicesChanged
        case .volumeButtonPressed: .volumeButtonPressed
        case .mediaPaused: .mediaPaused
        case .mediaResumed: .mediaResumed
        }
    }

    /// The arguments, in the order and of the types ``Kind/declaration`` gives.
    package var arguments: [BusValue] {
        switch self {
        case .routeChanged(let from, let to, let reason):
            [.string(from?.rawValue ?? ""), .string(to?.rawValue ?? ""), .string(reason.rawValue)]
        case .switchFailed(let device, let failure):
            [.string(device.rawValue), .string(failure.step.rawValue), .string(failure.message)]
        case .devicesChanged(let devices):
            [DeviceRecord.list(devices)]
        case .volumeButtonPressed(let button):
            [.string(button.rawValue)]
        case .mediaPaused(let players, let reason), .mediaResumed(let players, let reason):
            [.strings(players), .string(reason)]
        }
    }
}

extension ExportedObject {
    /// Emits `signal` on this object.
    func emit(_ signal: RouteKitSignal) {
        emit(signal.kind.member, signal.arguments)
    }
}
