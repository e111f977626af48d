import PulseAudio
import RouteKit
import Testing

/// Each classifier rule on its own, with evidence shaped as servers send it.
@Suite("Classifier rules")
struct ClassifierRuleTests {
    private func kind(direction: ClassificationEvidence.Direction = .output, owner: String = "alsa_card.pci-0000_00_1f.3",
                      _ properties: [String: String] = [:], port: String? = nil, type: DevicePortType = .unknown,
                      availability: PortAvailability = .unknown, group: String? = nil, monitor: Bool = false,
                      driver: String? = nil, offersOutput: Bool? = nil) -> AudioDeviceKind {
        DeviceClassifier.classify(ClassificationEvidence(
            direction: direction, ownerName: owner, driver: driver, properties: properties, portName: port,
            portType: type, availability: availability, availabilityGroup: group, isMonitor: monitor,
            ownerOffersOutput: offersOutput))
    }

    private let laptop = ["device.bus": "pci", "device.form_factor": "internal", "device.api": "alsa"]

    @Test("monitors and filter sinks are virtual, whatever they carry")
    func structure() {
        #expect(kind(direction: .input, owner: "bluez_sink.X.a2dp_sink.monitor", ["device.bus": "bluetooth"], monitor: true) == .virtual)
        #expect(kind(owner: "combination-sink", ["device.class": "filter", "device.description": "bluez_sink.A + bluez_sink.B"],
                     driver: "module-combine-sink.c") == .virtual)
    }

    @Test("Bluetooth transport wins over the port's form")
    func bluetooth() {
        #expect(kind(owner: "bluez_card.FC_A8", ["device.bus": "bluetooth", "device.form_factor": "speaker"],
                     port: "speaker-output", type: .speaker) == .bluetooth)
        #expect(kind(owner: "bluez_output.F4:29:67:BA:9A:5E", ["media.class": "Audio/Sink", "node.virtual": "false"]) == .bluetooth)
        #expect(kind(owner: "x", ["device.api": "bluez5"]) == .bluetooth)
    }

    @Test("sinks with no hardware behind them are virtual")
    func virtual() {
        #expect(kind(owner: "auto_null", ["device.class": "abstract"]) == .virtual)
        #expect(kind(owner: "echo-cancel-sink", ["node.virtual": "true", "media.class": "Audio/Sink"]) == .virtual)
        #expect(kind(owner: "Dummy-Driver", ["node.name": "Dummy-Driver", "priority.driver": "20000"]) == .virtual)
        #expect(kind(owner: "Midi-Bridge", ["media.class": "Midi/Bridge"]) == .virtual)
        // A null sink with a form factor stands for hardware.
        #expect(kind(owner: "test", ["device.class": "abstract", "device.form_factor": "internal"]) == .speakerphone)
    }

    @Test("port types decide when the server reports them")
    func portTypes() {
        #expect(kind(laptop, port: "analog-output-speaker", type: .speaker) == .speakerphone)
        #expect(kind(laptop, port: "analog-output-headphones", type: .headphones) == .wiredHeadset)
        #expect(kind(laptop, port: "[Out] Earpiece", type: .earpiece) == .earpiece)
        #expect(kind(laptop, port: "hdmi-output-0", type: .hdmi) == .external)
        #expect(kind(["device.bus": "usb"], port: "analog-output-speaker", type: .speaker) == .wiredHeadset)
    }

    @Test("connector names: ACP and UCM")
    func connectorNames() {
        #expect(kind(laptop, port: "[Out] HDMI1") == .external)
        #expect(kind(laptop, port: "iec958-stereo-output") == .external)
        #expect(kind(laptop, port: "[Out] Headphones") == .wiredHeadset)
        #expect(kind(laptop, port: "[Out] Line") == .external)
        #expect(kind(laptop, port: "analog-output-lineout") == .external)
        #expect(kind(laptop, port: "[Out] Speaker") == .speakerphone)
        #expect(kind(["device.form_factor": "internal"], port: "analog-output-speaker;output-bass-boost-on") == .speakerphone)
    }

    @Test("microphones: jack-detected ones are headsets, the rest built in")
    func microphones() {
        #expect(kind(direction: .input, laptop, port: "analog-input-internal-mic") == .speakerphone)
        #expect(kind(direction: .input, laptop, port: "analog-input-mic", availability: .unavailable) == .wiredHeadset)
        #expect(kind(direction: .input, laptop, port: "[In] Mic2", group: "Headset Mic") == .wiredHeadset)
        #expect(kind(direction: .input, laptop, port: "[In] Mic1") == .speakerphone)
        #expect(kind(direction: .input, ["device.bus": "usb", "device.form_factor": "webcam"], port: "analog-input-mic") == .external)
        #expect(kind(direction: .input, ["device.bus": "usb", "device.form_factor": "headset"], port: "analog-input-mic") == .wiredHeadset)
    }

    @Test("form factors and buses decide for generic ports")
    func formFactorsAndBuses() {
        #expect(kind(["device.bus": "usb", "device.form_factor": "speaker"], port: "analog-output") == .speakerphone)
        #expect(kind(["device.bus": "usb", "device.form_factor": "handset"]) == .earpiece)
        #expect(kind(["device.bus": "usb"], port: "analog-output") == .wiredHeadset)
        #expect(kind(direction: .input, ["device.bus": "usb"], port: "analog-input") == .external)
        #expect(kind(laptop, port: "analog-output") == .external)
        #expect(kind(["device.bus": "usb", "device.form_factor": "headset"], port: "iec958-stereo-output") == .external)
    }

    @Test("port-less PipeWire nodes are read by their profile and nick")
    func pipeWireNodes() {
        let hdmi = ["node.nick": "HDMI / DisplayPort 2 Output", "media.class": "Audio/Sink", "object.path": "alsa:pcm:0:hw:sofhdadsp,4:playback"]
        #expect(kind(owner: "alsa_output.pci.HiFi__hw_sofhdadsp_4__sink", hdmi) == .external)
        let combined = ["node.description": "Comet Lake PCH-LP cAVS Speaker + Headphones", "media.class": "Audio/Sink",
                        "object.path": "alsa:pcm:0:hw:sofhdadsp:playback", "device.profile.description": "Speaker + Headphones"]
        #expect(kind(owner: "alsa_output.pci.HiFi__hw_sofhdadsp__sink", combined) == .speakerphone)
        #expect(kind(direction: .input, owner: "alsa_input.pci.HiFi__Mic1__source",
                     ["device.bus": "pci", "device.profile.description": "Digital Microphone", "media.class": "Audio/Source"])
                == .speakerphone)
    }

    @Test("a path;option port (PulseAudio 1.x and older) is classified by its path, not its option")
    func compoundPortName() {
        let desktop = ["device.bus": "pci", "device.api": "alsa"]
        #expect(kind(desktop, port: "analog-output-speaker;output-bass-boost-on") == .speakerphone)
        #expect(kind(desktop, port: "analog-output;output-bass-boost-on") == .external)
        // An option that happens to name another connector says nothing of the path's form.
        #expect(kind(desktop, port: "analog-output-speaker;output-headphone-amp-on") == .speakerphone)
        #expect(kind(desktop, port: "analog-output;output-speaker-on") == .external)
    }

    @Test("a USB port called or typed speaker is a loudspeaker only when the form factor says one")
    func usbSpeakerNamedPorts() {
        let microphone = ["device.bus": "usb", "device.form_factor": "microphone"]
        #expect(kind(microphone, port: "analog-output-speaker") == .wiredHeadset)
        #expect(kind(["device.bus": "usb", "device.form_factor": "headset"], port: "analog-output-speaker", type: .speaker)
                == .wiredHeadset)
        #expect(kind(["device.bus": "usb", "device.form_factor": "speaker"], port: "analog-output-speaker", type: .speaker)
                == .speakerphone)
        #expect(kind(["device.bus": "usb", "device.form_factor": "internal"], port: "analog-output-speaker") == .speakerphone)
        #expect(kind(laptop, port: "analog-output-speaker", type: .speaker) == .speakerphone)
        // A form factor that is neither a person's nor a room speaker's decides by itself.
        #expect(kind(["device.bus": "usb", "device.form_factor": "tv"], port: "analog-output-speaker", type: .speaker)
                == .external)
    }

    @Test("a USB microphone that says nothing of its form is a headset's, unless its card has no output at all")
    func usbMicrophoneWithoutOutput() {
        let usb = ["device.bus": "usb"]
        #expect(kind(direction: .input, usb, port: "analog-input-mic", type: .mic, offersOutput: false) == .external)
        #expect(kind(direction: .input, usb, port: "analog-input-mic", type: .mic, offersOutput: true) == .wiredHeadset)
        #expect(kind(direction: .input, usb, port: "analog-input-mic", type: .mic) == .wiredHeadset)
        #expect(kind(direction: .input, ["device.bus": "usb", "device.form_factor": "headset"], port: "analog-input-mic",
                     offersOutput: false) == .wiredHeadset)
    }

    @Test("a port that names nothing, or a card without ports, is what its ALSA card or PCM is named after")
    func alsaNamesForGenericPorts() {
        let jack = ["alsa.card_name": "bcm2835 Headphones", "device.form_factor": "internal"]
        #expect(kind(jack, port: "analog-output", type: .analog) == .wiredHeadset)
        let hdmiCard = ["alsa.card_name": "HDA Intel HDMI", "device.bus": "pci", "device.form_factor": "internal",
                        "device.description": "Audio interno"]
        #expect(kind(hdmiCard) == .external)
        #expect(kind(["alsa.name": "HDMI 0", "device.bus": "pci"], port: "analog-output") == .external)
        // A port that names its role keeps it: the card's name does not override it.
        #expect(kind(["alsa.card_name": "HDA Intel HDMI", "device.bus": "pci"], port: "analog-output-speaker") == .speakerphone)
        #expect(kind(["alsa.card_name": "HDA Intel PCH", "device.bus": "pci", "device.api": "alsa"], port: "analog-output")
                == .external)
    }

    @Test("raw interface channels (Pro Audio, UCM Direct) are external unless a form factor says more")
    func rawInterfaceChannels() {
        let usb = ["device.bus": "usb", "device.api": "alsa"]
        #expect(kind(usb, port: "[Out] Direct") == .external)
        #expect(kind(direction: .input, usb, port: "[In] Direct") == .external)
        #expect(kind(owner: "alsa_output.usb-Interface-00.pro-output-0", usb) == .external)
        #expect(kind(owner: "alsa_output.usb-Headset-00.pro-output-0", ["device.bus": "usb", "device.form_factor": "headset"])
                == .wiredHeadset)
    }
    @Test("an ALSA card wired to a Bluetooth module's SCO lines is Bluetooth, whatever its generic ports say")
    func bluetoothVoiceLinkCard() {
        // Corpus file 97: an i.MX board's `bt-sco-audio` card, form factor internal, ports typed Analog.
        let sco = ["alsa.card_name": "bt-sco-audio", "device.bus_path": "platform-sound-bt-sco", "device.form_factor": "internal"]
        #expect(kind(owner: "alsa_card.platform-sound-bt-sco", sco, port: "analog-output", type: .analog) == .bluetooth)
        #expect(kind(direction: .input, owner: "alsa_card.platform-sound-bt-sco", sco, port: "analog-input", type: .analog)
                == .bluetooth)
        // The board's codec card beside it stays what its ports say.
        let codec = ["alsa.card_name": "SpencerGen_2", "device.bus_path": "platform-sound", "device.form_factor": "internal"]
        #expect(kind(owner: "alsa_card.platform-sound", codec, port: "analog-output-headphones", type: .headphones)
                == .wiredHeadset)
    }

    @Test("a microphone without jack detection is a jack when it is on one of ACP's jack paths")
    func undetectedMicrophoneJacks() {
        // Corpus file 99: an add-in PCI card (no form factor) that detects no jack at all.
        let addIn = ["device.bus": "pci", "device.api": "alsa", "alsa.card_name": "Xonar DG"]
        #expect(kind(direction: .input, addIn, port: "analog-input-front-mic") == .wiredHeadset)
        #expect(kind(direction: .input, addIn, port: "analog-input-mic") == .wiredHeadset)
        #expect(kind(direction: .input, laptop, port: "analog-input-microphone-dock") == .wiredHeadset)
        // PulseAudio 1.x named the jack path `analog-input-microphone`, with an option after a semicolon.
        #expect(kind(direction: .input, laptop, port: "analog-input-microphone;input-boost-on") == .wiredHeadset)
        // The built-in microphone keeps its own path.
        #expect(kind(direction: .input, laptop, port: "analog-input-internal-mic") == .speakerphone)
        #expect(kind(direction: .input, laptop, port: "analog-input-microphone-internal") == .speakerphone)
        #expect(kind(direction: .input, laptop, port: "[In] Mic1") == .speakerphone)
        // Only ACP's paths count: a UCM device a tablet names after its side is its own microphone.
        #expect(kind(direction: .input, laptop, port: "[In] FrontMic") == .speakerphone)
    }

    @Test("an aux input is a line-level input")
    func auxInput() {
        // Corpus file 99: `analog-input-aux: Analog Input`.
        #expect(kind(direction: .input, ["device.bus": "pci", "device.api": "alsa"], port: "analog-input-aux") == .external)
    }
    @Test("the sink of a USB device a person wears is the headset's, whatever its profile is called")
    func wornUSBDeviceSink() {
        // Corpus file 126: a wireless USB headset playing on its IEC958 interface, the sink's only
        // port "Digital Output (S/PDIF)".
        let headsetSink = ["device.bus": "usb", "device.form_factor": "headset", "device.icon_name": "audio-headset-usb",
                           "device.profile.name": "iec958-stereo", "device.string": "iec958:0"]
        #expect(kind(owner: "alsa_output.usb-Logitech_Logitech_G930_Headset-00.iec958-stereo", headsetSink,
                     port: "iec958-stereo-output") == .wiredHeadset)
        // A board's S/PDIF sink stays a digital output.
        let boardSink = ["device.bus": "pci", "device.form_factor": "internal", "device.profile.name": "iec958-stereo"]
        #expect(kind(owner: "alsa_output.pci-0000_00_14.2.iec958-stereo", boardSink, port: "iec958-stereo-output") == .external)
        // Corpus file 49: a headphone adapter's card lists an S/PDIF port of a profile not in use,
        // a phantom of its USB descriptors: a card port keeps its connector's kind.
        let adapterCard = ["device.bus": "usb", "device.form_factor": "headphone", "device.icon_name": "audio-headphones-usb"]
        #expect(kind(owner: "alsa_card.usb-Dell_Dell_Adapter-00", adapterCard, port: "iec958-stereo-output") == .external)
        #expect(kind(owner: "alsa_card.usb-Dell_Dell_Adapter-00", adapterCard, port: "analog-output") == .wiredHeadset)
    }
}
