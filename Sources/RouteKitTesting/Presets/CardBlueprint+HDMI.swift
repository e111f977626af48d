import PulseAudio

extension CardBlueprint {
    /// A graphics card's HDMI audio as `module-alsa-card` (PulseAudio 16) shows it: card
    /// `alsa_card.pci-0000_01_00.1` with profiles `output:hdmi-stereo` (priority 5900) and
    /// `off`; sink `alsa_output.pci-0000_01_00.1.hdmi-stereo` on port `hdmi-output-0` (type
    /// HDMI, availability group `Legacy 1`), available when a monitor is `connected`.
    /// Its jack is `HDMI/DP,pcm=3`. Unplugging the monitor makes the port and the profile
    /// unavailable; with port switching on, the card then falls back to `off`, and plugging it
    /// back switches to `output:hdmi-stereo` again, as `module-switch-on-port-available` does.
    public static func hdmi(connected: Bool = true) -> CardBlueprint {
        let properties = [
            "alsa.card": "2", "alsa.card_name": "HDA NVidia", "alsa.driver_name": "snd_hda_intel",
            "device.bus_path": "pci-0000:01:00.1", "device.bus": "pci", "device.vendor.id": "10de",
            "device.vendor.name": "NVIDIA Corporation", "device.product.id": "10f9",
            "device.product.name": "TU106 High Definition Audio Controller", "device.string": "2",
            "device.description": "TU106 High Definition Audio Controller", "module-udev-detect.discovered": "1",
            "device.icon_name": "audio-card-pci",
        ]
        let ports = [
            Port(name: "hdmi-output-0", description: "HDMI / DisplayPort", priority: 5900,
                 availability: connected ? .available : .unavailable, type: .hdmi, availabilityGroup: "Legacy 1",
                 direction: .output, properties: ["device.icon_name": "video-display"]),
        ]
        let sink = alsaDevice("alsa_output.pci-0000_01_00.1.hdmi-stereo", card: "2", mapping: "hdmi-stereo",
                              mappingDescription: "Digital Stereo (HDMI)",
                              description: "TU106 High Definition Audio Controller Digital Stereo (HDMI)",
                              ports: ["hdmi-output-0"])
        let profiles = [
            Profile(name: "output:hdmi-stereo", description: "Digital Stereo (HDMI) Output", priority: 5900,
                    isAvailable: connected, sinks: [sink]),
            .off,
        ]
        let jack = Jack(name: "HDMI/DP,pcm=3", whenPlugged: ["hdmi-output-0": .available],
                        whenUnplugged: ["hdmi-output-0": .unavailable])
        return CardBlueprint(name: "alsa_card.pci-0000_01_00.1", properties: properties, ports: ports, profiles: profiles,
                             jacks: [jack], behavior: .alsa, moduleName: "module-alsa-card",
                             moduleArgument: "device_id=\"2\" name=\"pci-0000_01_00.1\" "
                                 + "card_name=\"alsa_card.pci-0000_01_00.1\" namereg_fail=false")
    }
}
