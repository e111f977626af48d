import PulseAudio

extension CardBlueprint {
    /// The headset profile a Bluetooth headset offers besides A2DP.
    public enum BluetoothHeadsetProfile: String, Hashable, Sendable {
        /// HSP (`headset_head_unit`), what PulseAudio 16's native backend offers by default.
        case headsetHeadUnit = "headset_head_unit"
        /// HFP (`handsfree_head_unit`), with the native backend's HFP enabled or oFono.
        case handsfreeHeadUnit = "handsfree_head_unit"
    }

    /// A Bluetooth headset as `module-bluez5-device` (PulseAudio 16) shows it: card
    /// `bluez_card.<address>` with profiles `a2dp_sink` (priority 40, a stereo sink),
    /// `headset_head_unit` or `handsfree_head_unit` (priority 30, a mono sink and the headset's
    /// microphone) and `off`; ports `headset-output` and `headset-input` of type Headset, both
    /// of unknown availability; sinks `bluez_sink.<address>.<profile>` and source
    /// `bluez_source.<address>.<profile>`, with `api.bluez`-style properties (`device.api` =
    /// `bluez`, `device.bus` = `bluetooth`, `device.form_factor` = `headset`). The address is
    /// written with colons; names carry it with underscores, as PulseAudio's name registry
    /// rewrites it.
    public static func bluetoothHeadset(address: String = "00:1B:66:AA:BB:CC", name: String = "WH-1000XM4",
                                        headsetProfile: BluetoothHeadsetProfile = .headsetHeadUnit,
                                        activeProfile: String? = nil) -> CardBlueprint {
        let id = String(address.map { $0 == ":" ? "_" : $0 })
        let properties = [
            "device.description": name, "device.string": address, "device.api": "bluez", "device.class": "sound",
            "device.bus": "bluetooth", "device.form_factor": "headset", "bluez.path": "/org/bluez/hci0/dev_\(id)",
            "bluez.class": "0x240404", "bluez.alias": name, "device.icon_name": "audio-headset-bluetooth",
            "device.intended_roles": "phone",
        ]
        let ports = [
            Port(name: "headset-output", description: "Headset", type: .headset, direction: .output),
            Port(name: "headset-input", description: "Headset", type: .headset, direction: .input),
        ]
        let headset = headsetProfile.rawValue
        let profiles = [
            Profile(name: "a2dp_sink", description: "High Fidelity Playback (A2DP Sink)", priority: 40, sinks: [
                DeviceBlueprint(name: "bluez_sink.\(id).a2dp_sink",
                                properties: ["bluetooth.protocol": "a2dp_sink", "bluetooth.codec": "sbc"],
                                ports: ["headset-output"]),
            ]),
            Profile(name: headset,
                    description: headsetProfile == .headsetHeadUnit ? "Headset Head Unit (HSP)" : "Handsfree Head Unit (HFP)",
                    priority: 30,
                    sinks: [DeviceBlueprint(name: "bluez_sink.\(id).\(headset)",
                                            properties: ["bluetooth.protocol": headset, "bluetooth.codec": "CVSD"],
                                            ports: ["headset-output"], channelCount: 1)],
                    sources: [DeviceBlueprint(name: "bluez_source.\(id).\(headset)",
                                              properties: ["bluetooth.protocol": headset, "bluetooth.codec": "CVSD"],
                                              ports: ["headset-input"], channelCount: 1)]),
            .off,
        ]
        return CardBlueprint(name: "bluez_card.\(id)", driver: "module-bluez5-device.c", properties: properties,
                             ports: ports, profiles: profiles, activeProfile: activeProfile, behavior: .bluetooth,
                             moduleName: "module-bluez5-device",
                             moduleArgument: "path=/org/bluez/hci0/dev_\(id) autodetect_mtu=0")
    }
}
