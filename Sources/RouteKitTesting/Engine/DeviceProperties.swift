import PulseAudio

/// The properties and priority PulseAudio 16 derives for a new sink or source
/// (`pa_sink_new` / `pa_source_new` in src/pulsecore/sink.c and source.c: card properties
/// merged under the device's, then `pa_device_init_description`, `pa_device_init_icon`,
/// `pa_device_init_intended_roles` and `pa_device_init_priority`).
enum DeviceProperties {
    /// The final property list of a device with `properties`, on a card with `cardProperties`.
    static func derive(_ properties: [String: String], cardProperties: [String: String]?, isSink: Bool) -> [String: String] {
        var result = properties
        if let cardProperties {
            result.merge(cardProperties) { own, _ in own }
        }
        if result["device.description"] == nil, let description = fallbackDescription(result) {
            result["device.description"] = description
        }
        if result["device.icon_name"] == nil {
            result["device.icon_name"] = icon(result, isSink: isSink)
        }
        if result["device.intended_roles"] == nil,
           let formFactor = result["device.form_factor"], ["handset", "hands-free", "headset"].contains(formFactor) {
            result["device.intended_roles"] = "phone"
        }
        return result
    }

    /// The properties of the monitor source of a sink described as `sinkDescription`.
    static func monitor(sinkName: String, sinkDescription: String?, cardProperties: [String: String]?) -> [String: String] {
        derive(["device.description": "Monitor of \(sinkDescription ?? sinkName)", "device.class": "monitor"],
               cardProperties: cardProperties, isSink: false)
    }

    /// `pa_device_init_priority`: what makes one device a better default than another.
    static func priority(_ properties: [String: String]) -> UInt32 {
        var priority: UInt32 = 0
        if properties["device.api"] == "jack" { priority += 10000 }
        if let deviceClass = properties["device.class"] {
            if deviceClass == "sound" {
                priority += 9000
            } else if deviceClass != "modem" {
                priority += 1000
            }
        }
        switch properties["device.form_factor"] {
        case "headphone": priority += 900
        case "hifi": priority += 600
        case "speaker": priority += 500
        case "portable": priority += 450
        default: break
        }
        switch properties["device.bus"] {
        case "bluetooth": priority += 50
        case "usb": priority += 40
        case "pci": priority += 30
        default: break
        }
        if let profile = properties["device.profile.name"] {
            if profile.hasPrefix("analog-") {
                priority += 9
                let roles = properties["device.intended_roles"]?.split(separator: " ") ?? []
                if roles.contains("phone") { priority -= 1 }
            } else if profile.hasPrefix("iec958-") {
                priority += 7
            }
        }
        return priority
    }

    private static func fallbackDescription(_ properties: [String: String]) -> String? {
        let base: String?
        if properties["device.form_factor"] == "internal" {
            base = "Built-in Audio"
        } else if properties["device.class"] == "modem" {
            base = "Modem"
        } else {
            base = properties["device.product.name"]
        }
        guard let base else { return nil }
        guard let profile = properties["device.profile.description"] else { return base }
        return "\(base) \(profile)"
    }

    private static func icon(_ properties: [String: String], isSink: Bool) -> String {
        let byFormFactor: [String: String] = [
            "microphone": "audio-input-microphone", "webcam": "camera-web", "computer": "computer",
            "handset": "phone", "portable": "multimedia-player", "tv": "video-display",
            "headset": "audio-headset", "headphone": "audio-headphones", "speaker": "audio-speakers",
            "hands-free": "audio-handsfree",
        ]
        var base = properties["device.form_factor"].flatMap { byFormFactor[$0] }
        if base == nil, properties["device.class"] == "modem" { base = "modem" }
        var icon = base ?? (isSink ? "audio-card" : "audio-input-microphone")
        if let profile = properties["device.profile.name"] {
            if profile.contains("analog") {
                icon += "-analog"
            } else if profile.contains("iec958") {
                icon += "-iec958"
            } else if profile.contains("hdmi") {
                icon += "-hdmi"
            }
        }
        if let bus = properties["device.bus"] { icon += "-" + bus }
        return icon
    }
}
