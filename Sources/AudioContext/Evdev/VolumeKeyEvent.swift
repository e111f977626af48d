/// A volume key as evdev reports it: `EV_KEY` with `KEY_VOLUMEUP`, `KEY_VOLUMEDOWN` or
/// `KEY_MUTE`.
public struct VolumeKeyEvent: Hashable, Sendable, CustomStringConvertible {
    /// What the key's value says.
    public enum Action: String, Hashable, Sendable {
        /// Value 1: pressed.
        case press
        /// Value 2: held down, the keyboard's auto-repeat.
        case `repeat`
        /// Value 0: let go.
        case release
    }

    /// Which key.
    public var button: VolumeButton
    /// Pressed, repeated or released.
    public var action: Action

    /// A key event from its parts.
    public init(button: VolumeButton, action: Action) {
        self.button = button
        self.action = action
    }

    /// The volume key in `event`; nil for every other event (other keys, other types,
    /// `SYN_REPORT`, values other than 0, 1 and 2).
    public init?(_ event: InputEvent) {
        guard event.type == InputEvent.key else { return nil }
        switch event.code {
        case InputEvent.keyVolumeUp: button = .up
        case InputEvent.keyVolumeDown: button = .down
        case InputEvent.keyMute: button = .mute
        default: return nil
        }
        switch event.value {
        case 1: action = .press
        case 2: action = .repeat
        case 0: action = .release
        default: return nil
        }
    }

    /// Whether it counts as a press: pressed or auto-repeated, as a volume key acts.
    public var isPress: Bool { action != .release }

    /// For example `up press`.
    public var description: String { "\(button) \(action.rawValue)" }
}
