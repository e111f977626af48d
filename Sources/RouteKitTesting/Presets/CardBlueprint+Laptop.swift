import PulseAudio

extension CardBlueprint {
    /// A laptop's built-in HDA card as `module-alsa-card` (PulseAudio 16, no UCM) shows it:
    /// card `alsa_card.pci-0000_00_1f.3` with profiles `output:analog-stereo+input:analog-stereo`
    /// (duplex, the default), `output:analog-stereo`, `input:analog-stereo` and `off`; sink
    /// `alsa_output.pci-0000_00_1f.3.analog-stereo` with ports `analog-output-speaker`
    /// (Speaker, priority 10000, availability unknown) and `analog-output-headphones`
    /// (Headphones, 9900); source `alsa_input.pci-0000_00_1f.3.analog-stereo` with
    /// `analog-input-internal-mic` (Mic, 8900) and `analog-input-headset-mic` (Headset, 8800).
    /// The headphones and the headset microphone share one combo jack, `Headphone`
    /// (availability group `Legacy 1`): plugged in, they are available and the speakers are
    /// not (`state.plugged = no` in PulseAudio's analog-output-speaker path); unplugged, they
    /// are unavailable and the speakers unknown. It starts plugged in when `headphonesPlugged`.
    public static func laptopAnalog(headphonesPlugged: Bool = false) -> CardBlueprint {
        let jack: PortAvailability = headphonesPlugged ? .available : .unavailable
        let headphoneJack = Jack(
            name: "Headphone",
            whenPlugged: ["analog-output-headphones": .available, "analog-input-headset-mic": .available,
                          "analog-output-speaker": .unavailable],
            whenUnplugged: ["analog-output-headphones": .unavailable, "analog-input-headset-mic": .unavailable,
                            "analog-output-speaker": .unknown])
        let properties = [
            "alsa.card": "0", "alsa.card_name": "HDA Intel PCH", "alsa.long_card_name": "HDA Intel PCH at 0x601f120000 irq 147",
            "alsa.driver_name": "snd_hda_intel", "device.bus_path": "pci-0000:00:1f.3",
            "sysfs.path": "/devices/pci0000:00/0000:00:1f.3/sound/card0", "device.bus": "pci", "device.vendor.id": "8086",
            "device.vendor.name": "Intel Corporation", "device.product.id": "a0c8",
            "device.product.name": "Tiger Lake-LP Smart Sound Technology Audio Controller", "device.form_factor": "internal",
            "device.string": "0", "device.description": "Built-in Audio", "module-udev-detect.discovered": "1",
            "device.icon_name": "audio-card-pci",
        ]
        let ports = [
            Port(name: "analog-output-speaker", description: "Speakers", priority: 10000,
                 availability: headphonesPlugged ? .unavailable : .unknown, type: .speaker,
                 direction: .output, properties: ["device.icon_name": "audio-speakers"]),
            Port(name: "analog-output-headphones", description: "Headphones", priority: 9900, availability: jack,
                 type: .headphones, availabilityGroup: "Legacy 1", direction: .output,
                 properties: ["device.icon_name": "audio-headphones"]),
            Port(name: "analog-input-internal-mic", description: "Internal Microphone", priority: 8900, type: .mic,
                 direction: .input, properties: ["device.icon_name": "audio-input-microphone"]),
            Port(name: "analog-input-headset-mic", description: "Headset Microphone", priority: 8800, availability: jack,
                 type: .headset, availabilityGroup: "Legacy 1", direction: .input,
                 properties: ["device.icon_name": "audio-input-microphone"]),
        ]
        let sink = alsaDevice("alsa_output.pci-0000_00_1f.3.analog-stereo", card: "0", mapping: "analog-stereo",
                              mappingDescription: "Analog Stereo", description: "Built-in Audio Analog Stereo",
                              ports: ["analog-output-speaker", "analog-output-headphones"])
        let source = alsaDevice("alsa_input.pci-0000_00_1f.3.analog-stereo", card: "0", mapping: "analog-stereo",
                                mappingDescription: "Analog Stereo", description: "Built-in Audio Analog Stereo",
                                ports: ["analog-input-internal-mic", "analog-input-headset-mic"])
        let profiles = [
            Profile(name: "output:analog-stereo+input:analog-stereo", description: "Analog Stereo Duplex", priority: 6565,
                    sinks: [sink], sources: [source]),
            Profile(name: "output:analog-stereo", description: "Analog Stereo Output", priority: 6500, sinks: [sink]),
            Profile(name: "input:analog-stereo", description: "Analog Stereo Input", priority: 65, sources: [source]),
            .off,
        ]
        return CardBlueprint(name: "alsa_card.pci-0000_00_1f.3", properties: properties, ports: ports, profiles: profiles,
                             jacks: [headphoneJack], behavior: .alsa, moduleName: "module-alsa-card",
                             moduleArgument: "device_id=\"0\" name=\"pci-0000_00_1f.3\" "
                                 + "card_name=\"alsa_card.pci-0000_00_1f.3\" namereg_fail=false tsched=yes "
                                 + "fixed_latency_range=no ignore_dB=no deferred_volume=yes use_ucm=yes avoid_resampling=no "
                                 + "card_properties=\"module-udev-detect.discovered=1\"")
    }

    /// A sink or source as `module-alsa-card` creates it for a mapping.
    static func alsaDevice(_ name: String, card: String, mapping: String, mappingDescription: String,
                           description: String, ports: [String], channelCount: Int = 2) -> DeviceBlueprint {
        DeviceBlueprint(name: name, description: description, properties: [
            "device.api": "alsa", "device.class": "sound", "alsa.card": card, "device.string": "hw:\(card)",
            "device.profile.name": mapping, "device.profile.description": mappingDescription,
        ], ports: ports, channelCount: channelCount)
    }
}
