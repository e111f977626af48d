import PulseAudio

extension CardBlueprint {
    /// A USB headset as `module-alsa-card` (PulseAudio 16) shows it: card
    /// `alsa_card.usb-<serial>-00` (`device.bus` = `usb`, `device.form_factor` = `headset`)
    /// with profiles `output:analog-stereo+input:mono-fallback` (the default),
    /// `output:analog-stereo`, `input:mono-fallback` and `off`; sink
    /// `alsa_output.usb-<serial>-00.analog-stereo` on port `analog-output` (Analog Output) and
    /// source `alsa_input.usb-<serial>-00.mono-fallback` on `analog-input-mic`; no jack
    /// detection, so availability unknown. Unplugging it is ``SimulatedServer/removeCard(named:)``.
    public static func usbHeadset(serial: String = "Logitech_Inc_Logitech_USB_Headset_H340",
                                  name: String = "Logitech USB Headset H340") -> CardBlueprint {
        let id = "usb-\(serial)-00"
        let properties = [
            "alsa.card": "1", "alsa.card_name": name, "alsa.long_card_name": name, "alsa.driver_name": "snd_usb_audio",
            "device.bus_path": "pci-0000:00:14.0-usb-0:2:1.0", "udev.id": id, "device.bus": "usb",
            "device.vendor.id": "046d", "device.vendor.name": "Logitech, Inc.", "device.product.id": "0a38",
            "device.product.name": name, "device.serial": serial, "device.form_factor": "headset", "device.string": "1",
            "device.description": name, "module-udev-detect.discovered": "1", "device.icon_name": "audio-headset-usb",
        ]
        let ports = [
            Port(name: "analog-output", description: "Analog Output", priority: 9900, type: .analog, direction: .output),
            Port(name: "analog-input-mic", description: "Microphone", priority: 8700, type: .mic, direction: .input),
        ]
        let sink = alsaDevice("alsa_output.\(id).analog-stereo", card: "1", mapping: "analog-stereo",
                              mappingDescription: "Analog Stereo", description: "\(name) Analog Stereo", ports: ["analog-output"])
        let source = alsaDevice("alsa_input.\(id).mono-fallback", card: "1", mapping: "mono-fallback",
                                mappingDescription: "Mono", description: "\(name) Mono", ports: ["analog-input-mic"],
                                channelCount: 1)
        let profiles = [
            Profile(name: "output:analog-stereo+input:mono-fallback", description: "Analog Stereo Output + Mono Input",
                    priority: 6501, sinks: [sink], sources: [source]),
            Profile(name: "output:analog-stereo", description: "Analog Stereo Output", priority: 6500, sinks: [sink]),
            Profile(name: "input:mono-fallback", description: "Mono Input", priority: 1, sources: [source]),
            .off,
        ]
        return CardBlueprint(name: "alsa_card.\(id)", properties: properties, ports: ports, profiles: profiles,
                             behavior: .alsa, moduleName: "module-alsa-card",
                             moduleArgument: "device_id=\"1\" name=\"\(id)\" card_name=\"alsa_card.\(id)\" namereg_fail=false")
    }
}
