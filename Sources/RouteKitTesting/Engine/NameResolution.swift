import PulseAudio

/// How PulseAudio 16 finds a device or card from a name in a request
/// (src/pulsecore/namereg.c): names are checked first (`PA_ERR_INVALID` when not valid),
/// then looked up by name, then as a decimal index; `@DEFAULT_SINK@`, `@DEFAULT_SOURCE@`
/// and `@DEFAULT_MONITOR@` are allowed where a wildcard is.
enum NameResolution {
    /// `pa_namereg_is_valid_name`: 1 to 128 of `[A-Za-z0-9._-]`.
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && name.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2E || byte == 0x2D || byte == 0x5F
        }
    }

    /// `pa_namereg_is_valid_name_or_wildcard`.
    static func isValidOrWildcard(_ name: String, _ side: Side) -> Bool {
        if isValid(name) { return true }
        return side == .output ? name == "@DEFAULT_SINK@" : (name == "@DEFAULT_SOURCE@" || name == "@DEFAULT_MONITOR@")
    }
}

extension SimulationState {
    /// `pa_namereg_get` for a sink or source.
    func resolveDevice(_ side: Side, _ name: String) -> DeviceRecord? {
        switch (side, name) {
        case (.output, "@DEFAULT_SINK@"), (.input, "@DEFAULT_SOURCE@"):
            return defaultDevice[side].flatMap { devices[side][$0] }
        case (.input, "@DEFAULT_MONITOR@"):
            return defaultDevice.output.flatMap { devices.output[$0]?.monitor }.flatMap { devices.input[$0] }
        default:
            break
        }
        guard NameResolution.isValid(name) else { return nil }
        if let device = device(side, named: name) { return device }
        guard let index = UInt32(name), let device = devices[side][index], !device.isUnlinking else { return nil }
        return device
    }

    /// `pa_namereg_get` for a card.
    func resolveCard(_ name: String) -> CardRecord? {
        guard NameResolution.isValid(name) else { return nil }
        if let card = card(named: name) { return card }
        return UInt32(name).flatMap { cards[$0] }
    }
}
