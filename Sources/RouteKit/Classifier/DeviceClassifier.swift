import FoundationEssentials
import PulseAudio

/// Tells what kind of device a port, sink, source, card or node is, from what the server
/// says alone: no rule is keyed on a product or vendor name.
///
/// The rules run in order of trust, and the first that decides wins:
///
/// 1. Structure: a monitor source, a filter sink (combine, echo-cancel, ladspa) is ``AudioDeviceKind/virtual``.
/// 2. Transport: Bluetooth (`device.bus`, `device.api`, `api.bluez5.*`, the `bluez_` names
///    BlueZ's modules give, an ALSA card wired to a Bluetooth module's SCO lines) is
///    ``AudioDeviceKind/bluetooth``, whatever the port's form: a Bluetooth speaker is still Bluetooth.
/// 3. Not hardware: `device.class=abstract`, null-sink factories, `node.virtual`, driver
///    nodes, with no bus or form factor of their own, is ``AudioDeviceKind/virtual``.
/// 3a. The sink or source of a USB device a person wears (form factor `headset`, `headphone`,
///    `hands-free`) is ``AudioDeviceKind/wiredHeadset`` whatever its profile and port are called
///    (a wireless headset's `iec958-stereo` sink).
/// 4. The port type (`pa_device_port_type_t`, PulseAudio 14 and later).
/// 5. Port names that name a connector (ACP `analog-output-headphones`, UCM `[Out] HDMI1`,
///    `iec958`, `Earpiece`; of PulseAudio 1.x's `path;option` names, the path), and for
///    port-less PipeWire nodes their profile and nick.
/// 6. For a port that names neither a connector nor a role (`analog-output`) and for a card
///    listed without ports, the ALSA card and PCM names, which the kernel gives after the
///    connector (`bcm2835 Headphones`, `HDA Intel HDMI`, `HDMI 0`).
/// 7. `device.form_factor`.
/// 8. Port names that name a role (`speaker`, `mic`), with the jack's detectability: a
///    microphone whose availability is known, or on one of ACP's jack paths
///    (`analog-input-mic`, `-front-mic`, `-rear-mic`, `-dock`) or a `Mic Select` option
///    (`input-microphone-1`, `-2`), is on a jack.
/// 9. Raw interface channels (PipeWire's Pro Audio profile, UCM's `Direct` device) are
///    ``AudioDeviceKind/external``: studio outputs and inputs, no person's device.
/// 10. `device.bus` (a USB output with nothing more specific is a headset or headphone amplifier).
/// 11. `device.icon_name` and `device.intended_roles`.
///
/// USB Audio Class devices name their output path "speaker" whatever they are, so a USB
/// device's speaker-named or speaker-typed port is a speakerphone only when its form factor
/// says so (`speaker`, `internal`); otherwise it is where headphones plug in. A USB microphone
/// that says nothing of its form is a headset's, unless its card offers no output at all:
/// then it is a microphone of its own, which no person wears.
///
/// Package access: applications get the result as ``AudioDevice/kind``; the package's tests
/// and the dump corpus check the rules one by one.
package enum DeviceClassifier {
    /// The kind `evidence` shows.
    package static func classify(_ evidence: ClassificationEvidence) -> AudioDeviceKind {
        let facts = Facts(evidence)
        if evidence.isMonitor || facts.isFilter { return .virtual }
        if facts.isBluetooth { return .bluetooth }
        if facts.isVirtual { return .virtual }
        if facts.formFactor == "webcam" { return .external }
        if let worn = kindOfWornUSBDevice(facts) { return worn }
        return kindFromPortType(facts)
            ?? kindFromConnectorName(facts)
            ?? kindFromALSAName(facts)
            ?? kindFromFormFactor(facts)
            ?? kindFromRoleName(facts)
            ?? kindFromRawChannels(facts)
            ?? kindFromBus(facts)
            ?? kindFromIconAndRoles(facts)
            ?? fallback(facts)
    }

    // MARK: The rules

    /// The sink or source of a USB device a person wears (form factor `headset`, `headphone`
    /// or `hands-free`): the stream the server opened on it plays into that person, whatever
    /// the profile it opened is called. USB Audio Class devices name their paths after their
    /// interface, not after a connector anyone plugs into: a wireless headset that plays on
    /// its IEC958 interface has a sink `...iec958-stereo` whose port is "Digital Output (S/PDIF)".
    /// A card's port is left to the rules below: on a profile not in use it may be a phantom
    /// of the USB descriptors (a headphone adapter's S/PDIF output).
    private static func kindOfWornUSBDevice(_ facts: Facts) -> AudioDeviceKind? {
        guard facts.bus == "usb", let form = facts.formFactor, ["headset", "headphone", "hands-free"].contains(form),
              facts.evidence.properties["device.profile.name"] != nil else {
            return nil
        }
        return .wiredHeadset
    }

    private static func kindFromPortType(_ facts: Facts) -> AudioDeviceKind? {
        switch facts.evidence.portType {
        case .speaker: facts.speakerPortKind
        case .headphones, .headset: .wiredHeadset
        case .handset, .earpiece, .phone: .earpiece
        case .hdmi, .spdif, .tv, .video, .line: .external
        case .bluetooth, .handsfree: .bluetooth
        case .mic: facts.microphoneKind
        default: nil
        }
    }

    private static func kindFromConnectorName(_ facts: Facts) -> AudioDeviceKind? {
        let names = facts.connectorNames
        if names.contains(where: { $0.containsAny("hdmi", "displayport", "iec958", "spdif", "s/pdif", "optical", "toslink") }) {
            return .external
        }
        if names.contains(where: { $0.containsAny("earpiece", "handset", "receiver") }) { return .earpiece }
        if names.contains(where: { $0.containsAny("headphone", "headset") }) { return .wiredHeadset }
        if names.contains(where: { $0.containsAny("lineout", "line-out", "line out", "linein", "line-in", "line in", "input-aux")
            || $0.hasSuffix("] line") }) {
            return .external
        }
        return nil
    }

    /// A generic port, or none: what the ALSA card and PCM are named after.
    private static func kindFromALSAName(_ facts: Facts) -> AudioDeviceKind? {
        guard !facts.connectorNamesARole else { return nil }
        let names = facts.alsaNames
        if names.contains(where: { $0.containsAny("hdmi", "displayport", "iec958", "spdif", "s/pdif") }) { return .external }
        if names.contains(where: { $0.containsAny("headphone", "headset") }) { return .wiredHeadset }
        return nil
    }

    private static func kindFromFormFactor(_ facts: Facts) -> AudioDeviceKind? {
        switch facts.formFactor {
        case "headset", "headphone", "hands-free": .wiredHeadset
        case "handset": .earpiece
        case "speaker": .speakerphone
        case "tv", "computer", "hifi", "car", "portable": .external
        case "internal" where facts.evidence.portName == nil: .speakerphone
        default: nil
        }
    }

    private static func kindFromRoleName(_ facts: Facts) -> AudioDeviceKind? {
        let names = facts.connectorNames
        if names.contains(where: { $0.containsAny("speaker") }), let kind = facts.speakerPortKind {
            return kind
        }
        if facts.evidence.direction == .input,
           names.contains(where: { $0.containsAny("mic", "microphone") }) {
            return facts.microphoneKind
        }
        return nil
    }

    /// PipeWire's Pro Audio profile (`pro-output-0`) and UCM's `Direct` device open an
    /// interface's channels as they are: studio monitors and line or instrument inputs.
    private static func kindFromRawChannels(_ facts: Facts) -> AudioDeviceKind? {
        let raw = facts.connectorNames.contains { $0.containsAny("pro-output", "pro-input") || $0.hasSuffix("] direct") }
        return raw ? .external : nil
    }

    private static func kindFromBus(_ facts: Facts) -> AudioDeviceKind? {
        guard facts.bus == "usb" else { return nil }
        // A USB device with no form factor and nothing more specific: outputs are headsets,
        // headphone amplifiers and dongles; an input of its own is a line or phantom input.
        return facts.evidence.direction == .output ? .wiredHeadset : .external
    }

    private static func kindFromIconAndRoles(_ facts: Facts) -> AudioDeviceKind? {
        let icon = facts.icon
        if icon.containsAny("headphone", "headset") { return .wiredHeadset }
        if icon.containsAny("camera-web", "video-display") { return .external }
        if icon.containsAny("speaker") { return .speakerphone }
        if icon.containsAny("phone") { return .earpiece }
        if facts.roles.contains("phone") { return .wiredHeadset }
        return nil
    }

    /// Nothing decided: an output of a built-in card with a generic name is a line out;
    /// a built-in microphone is the machine's own.
    private static func fallback(_ facts: Facts) -> AudioDeviceKind {
        if facts.evidence.direction == .input {
            return facts.evidence.portName == nil && !facts.isHardware ? .virtual : facts.microphoneKind
        }
        return facts.isHardware ? .external : .virtual
    }
}

/// What the rules read, derived once from the evidence.
private struct Facts {
    let evidence: ClassificationEvidence
    let properties: [String: String]
    let bus: String?
    let formFactor: String?
    let deviceClass: String?
    let icon: String
    let roles: [String]
    /// Lowercased names that may name a connector: the port's name, and its description as
    /// a weaker English hint; for port-less nodes, their profile, nick and path.
    let connectorNames: [String]

    init(_ evidence: ClassificationEvidence) {
        self.evidence = evidence
        var properties = evidence.properties
        for (key, value) in evidence.portProperties { properties[key] = value }
        self.properties = properties
        bus = evidence.properties["device.bus"]?.lowercased()
        formFactor = evidence.properties["device.form_factor"]?.lowercased()
        deviceClass = evidence.properties["device.class"]?.lowercased()
        icon = (evidence.portProperties["device.icon_name"] ?? evidence.properties["device.icon_name"] ?? "").lowercased()
        roles = (evidence.properties["device.intended_roles"] ?? "").lowercased().split(separator: " ").map(String.init)
        var names: [String] = []
        if let port = evidence.portName {
            names.append(Self.path(ofPort: port.lowercased()))
            if let description = evidence.portDescription {
                // A `path;option` port's description is `Path / Option`: the path's part counts.
                let path = port.contains(";") ? description.components(separatedBy: " / ")[0] : description
                names.append(path.lowercased())
            }
        } else {
            for key in ["device.profile.name", "node.nick", "device.profile.description", "object.path", "api.alsa.pcm.name"] {
                if let value = evidence.properties[key] { names.append(Self.firstRoute(value.lowercased())) }
            }
            if let description = evidence.properties["node.description"] ?? evidence.properties["device.description"],
               Self.isALSA(evidence.properties) {
                names.append(Self.firstRoute(description.lowercased()))
            }
            // A sink named after its ALSA profile (`...hdmi-stereo-extra1`, `...iec958-stereo`).
            if evidence.ownerName.hasPrefix("alsa_") { names.append(evidence.ownerName.lowercased()) }
        }
        connectorNames = names
    }

    /// Whether the properties describe an ALSA device (PipeWire's ALSA nodes, PulseAudio's ALSA sinks).
    static func isALSA(_ properties: [String: String]) -> Bool {
        properties["device.api"] == "alsa" || properties["object.path"]?.hasPrefix("alsa:") == true
            || properties.keys.contains { $0.hasPrefix("alsa.") || $0.hasPrefix("api.alsa.") }
    }

    /// PulseAudio 1.x and older name a port `path;option` (`analog-output;output-bass-boost-on`):
    /// the path is the connector, the option a mixer setting on it that says nothing of its form.
    static func path(ofPort name: String) -> String {
        guard let semicolon = name.firstIndex(of: ";") else { return name }
        return String(name[..<semicolon])
    }

    /// UCM and PipeWire join the routes one node carries with " + ": the first one is the
    /// route the node opens on ("Speaker + Headphones").
    private static func firstRoute(_ text: String) -> String {
        guard let range = text.firstRange(of: " + ") else { return text }
        return String(text[..<range.lowerBound])
    }

    /// combine, echo-cancel, ladspa and remap sinks: never hardware, whatever their description says.
    var isFilter: Bool {
        if deviceClass == "filter" { return true }
        let driver = (evidence.driver ?? "").lowercased()
        return driver.containsAny("module-combine", "module-echo-cancel", "module-ladspa", "module-remap", "module-virtual")
    }

    var isBluetooth: Bool {
        if bus == "bluetooth" { return true }
        if let api = properties["device.api"]?.lowercased(), api.hasPrefix("bluez") { return true }
        if properties.keys.contains(where: { $0.hasPrefix("api.bluez") || $0.hasPrefix("bluez5.") || $0.hasPrefix("bluez.") }) {
            return true
        }
        let name = evidence.ownerName.lowercased()
        if ["bluez_card.", "bluez_sink.", "bluez_source.", "bluez_output.", "bluez_input."].contains(where: { name.hasPrefix($0) }) {
            return true
        }
        return isBluetoothVoiceLink
    }

    /// An ALSA card wired to a Bluetooth module's SCO (voice) PCM lines, named after that link
    /// by its card, its PCM or its bus path (`bt-sco-audio`, `platform-sound-bt-sco`): what
    /// plays there goes to the hands-free link, whatever its generic ports say.
    private var isBluetoothVoiceLink: Bool {
        let names = alsaNames + [properties["device.bus_path"]?.lowercased(), evidence.ownerName.lowercased()].compactMap { $0 }
        return names.contains { $0.containsAny("bt-sco", "bt_sco", "btsco") }
    }

    /// Whether the server says anything that only hardware has.
    var isHardware: Bool {
        bus != nil || formFactor != nil || evidence.portName != nil
            || ["alsa_card.", "alsa_output.", "alsa_input."].contains { evidence.ownerName.hasPrefix($0) }
            || Self.isALSA(properties)
    }

    var isVirtual: Bool {
        if isHardware { return false }
        if deviceClass == "abstract" || properties["node.virtual"] == "true" { return true }
        let factory = (properties["factory.name"] ?? "").lowercased()
        if factory.containsAny("null-audio-sink", "support.node.driver") { return true }
        let mediaClass = properties["media.class"] ?? ""
        if !mediaClass.isEmpty, !mediaClass.hasPrefix("Audio/") { return true }
        if mediaClass.hasSuffix("/Virtual") { return true }
        let name = evidence.ownerName.lowercased()
        return name == "auto_null" || name.containsAny("-driver", "null", "dummy", "loopback", "echo-cancel")
            || (evidence.driver ?? "").lowercased().containsAny("null-sink", "module-loopback")
            || (properties.isEmpty && evidence.portName == nil)
    }

    /// What a port called or typed "speaker" is: a loudspeaker for the room, except on USB,
    /// where USB Audio Class devices call their output path "speaker" whatever they are: there
    /// it is one only when the form factor says so, and where headphones plug in when the form
    /// factor is absent or something a person wears; nil when the form factor decides
    /// (`tv`, `hifi`, `car`...).
    var speakerPortKind: AudioDeviceKind? {
        guard bus == "usb" else { return .speakerphone }
        switch formFactor {
        case "speaker", "internal": return .speakerphone
        case nil, "headset", "headphone", "hands-free", "microphone": return .wiredHeadset
        default: return nil
        }
    }

    /// Whether the port's own names say what it does (`speaker`, `mic`) without naming a connector.
    var connectorNamesARole: Bool {
        connectorNames.contains { $0.containsAny("speaker", "mic") }
    }

    /// The ALSA card and PCM names, lowercased (`bcm2835 headphones`, `hdmi 0`).
    var alsaNames: [String] {
        ["alsa.card_name", "api.alsa.card.name", "alsa.name"].compactMap { properties[$0]?.lowercased() }
    }

    /// A microphone: on a jack when its detection is known or grouped, else built in; on
    /// USB, what its form factor says.
    var microphoneKind: AudioDeviceKind {
        if bus == "usb" {
            switch formFactor {
            case "headset", "headphone", "hands-free": return .wiredHeadset
            case "speaker": return .speakerphone
            case .some: return .external
            // A microphone on a USB device that says nothing of its form: a headset's, or a
            // dock's or adapter's combo jack; on a device with no output at all, a microphone
            // of its own.
            case nil: return evidence.ownerOffersOutput == false ? .external : .wiredHeadset
            }
        }
        if formFactor == "webcam" { return .external }
        let names = connectorNames
        if names.contains(where: { $0.containsAny("internal", "dmic", "digital mic", "builtin", "built-in") }) { return .speakerphone }
        if names.contains(where: { $0.containsAny("headset", "headphone") }) { return .wiredHeadset }
        // ACP's microphone paths other than the built-in one are jacks: `analog-input-mic`
        // (PulseAudio 1.x: `analog-input-microphone`) and those named after the chassis
        // (`-front-mic`, `-rear-mic`, `-dock`). A card without jack detection reports them unknown.
        if let port = evidence.portName.map({ Self.path(ofPort: $0.lowercased()) }), port.hasPrefix("analog-input"),
           port == "analog-input-mic" || port == "analog-input-microphone" || port.containsAny("front", "rear", "dock") {
            return .wiredHeadset
        }
        if let port = evidence.portName?.lowercased(), Self.isMicSelectOption(port) { return .wiredHeadset }
        if evidence.availability != .unknown || evidence.availabilityGroup != nil { return .wiredHeadset }
        return .speakerphone
    }

    /// Whether `port` is one of the options of a codec's `Mic Select` (AC'97 codecs and the HDA
    /// codecs that kept it): PulseAudio calls both `Mic1` and `Mic2` `input-microphone`, and
    /// PulseAudio 0.9 numbered them as ports of their own (`input-microphone-1`, `-2`). They
    /// choose between the codec's two microphone jacks.
    static func isMicSelectOption(_ port: String) -> Bool {
        port.split(separator: ";").contains { part in
            guard part.hasPrefix("input-microphone") else { return false }
            let rest = part.dropFirst("input-microphone".count)
            return rest.isEmpty || (rest.first == "-" && rest.count > 1 && rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
        }
    }
}
