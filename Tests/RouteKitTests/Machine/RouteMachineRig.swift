import PulseAudio
@testable import RouteKit

/// Devices as ``DeviceModel`` shows them, for the route machine's tests. Each device has a sink
/// of its own, so "active" means one thing: its sink is the default.
enum MachineDevices {
    /// The laptop's loudspeaker (a card with a port; availability unknown, as without jack
    /// detection). With `microphone`, the built-in microphone goes with it.
    static func speaker(_ name: String = "pci", availability: PortAvailability = .unknown,
                        microphone: Bool = false) -> AudioDevice {
        AudioDevice(
            id: AudioDevice.ID(rawValue: "alsa_card.\(name)/analog-output-speaker"), kind: .speakerphone,
            description: "Speakers (\(name))", bus: "pci", formFactor: "internal", availability: availability,
            isActive: false, card: "alsa_card.\(name)",
            output: .init(deviceName: "alsa_output.\(name).analog-stereo", port: "analog-output-speaker",
                          profile: "output:analog-stereo+input:analog-stereo", description: "Speakers"),
            input: microphone ? .init(deviceName: "alsa_input.\(name).analog-stereo", port: "analog-input-internal-mic",
                                      profile: "output:analog-stereo+input:analog-stereo", description: "Internal Microphone")
                : nil,
            requiredProfile: nil)
    }

    /// A phone's handset receiver.
    static func earpiece(availability: PortAvailability = .unknown) -> AudioDevice {
        AudioDevice(
            id: "alsa_card.platform-sound/earpiece", kind: .earpiece, description: "Earpiece", bus: nil,
            formFactor: "handset", availability: availability, isActive: false, card: "alsa_card.platform-sound",
            output: .init(deviceName: "alsa_output.platform-sound.earpiece", port: "earpiece", profile: "HiFi",
                          description: "Earpiece"),
            input: nil, requiredProfile: nil)
    }

    /// The Bluetooth profiles a headset's card can be on.
    enum BluetoothProfile: String {
        case a2dp = "a2dp-sink"
        case headsetUnit = "headset-head-unit"
    }

    /// A Bluetooth headset with a card: in A2DP it plays only (its microphone port has no
    /// source until the headset profile, its ``AudioDevice/callProfile``, is selected); in the
    /// headset profile it does both. `callProfile: false` is a headset whose card offers no
    /// profile with a microphone.
    static func bluetoothHeadset(_ address: String = "00_1B_66_AA_BB_CC", profile: BluetoothProfile = .a2dp,
                                 callProfile: Bool = true, availability: PortAvailability = .unknown) -> AudioDevice {
        let card = "bluez_card.\(address)"
        let sink = "bluez_output.\(address).\(profile.rawValue)"
        let input: AudioDevice.Endpoint? = callProfile
            ? .init(deviceName: profile == .headsetUnit ? "bluez_input.\(address).\(profile.rawValue)" : nil,
                    port: "headset-input", profile: BluetoothProfile.headsetUnit.rawValue, description: "Headset microphone")
            : nil
        return AudioDevice(
            id: AudioDevice.ID(rawValue: "\(card)/headset-output"), kind: .bluetooth, description: "Headset \(address)",
            bus: "bluetooth", formFactor: "headset", availability: availability, isActive: false, card: card,
            output: .init(deviceName: sink, port: "headset-output", profile: profile.rawValue, description: "Headset"),
            input: input, requiredProfile: nil,
            callProfile: callProfile ? BluetoothProfile.headsetUnit.rawValue : nil)
    }

    /// A Bluetooth sink without a card (as some setups show them): no profile to switch.
    static func bluetoothSink(_ address: String = "00_1B_66_DD_EE_FF") -> AudioDevice {
        AudioDevice(
            id: AudioDevice.ID(rawValue: "bluez_sink.\(address)"), kind: .bluetooth, description: "Speaker \(address)",
            bus: "bluetooth", formFactor: "speaker", availability: .unknown, isActive: false, card: nil,
            output: .init(deviceName: "bluez_sink.\(address)", port: nil, description: "Speaker"),
            input: nil, requiredProfile: nil)
    }

    /// Headphones with a microphone on USB (available: the card knows it is there).
    static func wiredHeadset(_ name: String = "usb-headset", availability: PortAvailability = .available,
                             microphone: Bool = true) -> AudioDevice {
        AudioDevice(
            id: AudioDevice.ID(rawValue: "alsa_card.\(name)/analog-output-headphones"), kind: .wiredHeadset,
            description: "Headset (\(name))", bus: "usb", formFactor: "headset", availability: availability,
            isActive: false, card: "alsa_card.\(name)",
            output: .init(deviceName: "alsa_output.\(name).analog-stereo", port: "analog-output-headphones",
                          profile: "output:analog-stereo+input:mono-fallback", description: "Headphones"),
            input: microphone ? .init(deviceName: "alsa_input.\(name).mono-fallback", port: "analog-input-mic",
                                      profile: "output:analog-stereo+input:mono-fallback", description: "Microphone")
                : nil,
            requiredProfile: nil)
    }

    /// A microphone alone (no output): a wired headset's kind, but nothing to play on.
    static func microphoneOnly(_ name: String = "usb-mic") -> AudioDevice {
        AudioDevice(
            id: AudioDevice.ID(rawValue: "alsa_card.\(name)/analog-input-mic"), kind: .wiredHeadset,
            description: "Microphone (\(name))", bus: "usb", formFactor: "microphone", availability: .available,
            isActive: false, card: "alsa_card.\(name)", output: nil,
            input: .init(deviceName: "alsa_input.\(name).mono-fallback", port: "analog-input-mic", description: "Microphone"),
            requiredProfile: nil)
    }

    /// A monitor on HDMI.
    static func hdmi() -> AudioDevice {
        AudioDevice(
            id: "alsa_card.pci-hdmi/hdmi-output-0", kind: .external, description: "HDMI monitor", bus: "pci",
            formFactor: nil, availability: .available, isActive: false, card: "alsa_card.pci-hdmi",
            output: .init(deviceName: "alsa_output.pci-hdmi.hdmi-stereo", port: "hdmi-output-0",
                          profile: "output:hdmi-stereo", description: "HDMI"),
            input: nil, requiredProfile: nil)
    }

    /// A null sink.
    static func virtualSink(_ name: String = "null") -> AudioDevice {
        AudioDevice(
            id: AudioDevice.ID(rawValue: name), kind: .virtual, description: "Null Output", bus: nil, formFactor: nil,
            availability: .unknown, isActive: false, card: nil,
            output: .init(deviceName: name, port: nil, description: "Null Output"), input: nil, requiredProfile: nil)
    }
}

extension AudioDevice {
    /// A copy with `change` applied.
    func altered(_ change: (inout AudioDevice) -> Void) -> AudioDevice {
        var copy = self
        change(&copy)
        return copy
    }

    /// The sink's name (every fixture with an output has one).
    var sinkName: String { output?.deviceName ?? "" }
}

/// A machine and a pretend server beside it: what the server shows (devices, defaults) is
/// kept here and handed to the machine as the engine would, with `isActive` derived from the
/// default sink as ``DeviceModel/markActive(_:defaultSinkName:defaultSourceName:sinks:sources:)``
/// does. Time stands still unless ``advance(_:)`` moves it.
struct MachineRig {
    var machine: RouteMachine
    /// The devices the server shows, in the order they were announced.
    private(set) var shown: [AudioDevice]
    private(set) var defaultSink: String?
    private(set) var defaultSource: String?
    let epoch: ContinuousClock.Instant
    private(set) var now: ContinuousClock.Instant

    init(_ devices: [AudioDevice], defaultSink: String?, defaultSource: String? = nil,
         preferences: PreferenceList = PreferenceList(), configuration: RouteMachine.Configuration = .init()) {
        machine = RouteMachine(configuration: configuration, preferences: preferences)
        shown = devices
        self.defaultSink = defaultSink
        self.defaultSource = defaultSource
        epoch = ContinuousClock.now
        now = epoch
    }

    /// The devices as the machine is given them: active when their sink is the default.
    var devices: [AudioDevice] {
        shown.map { device in
            device.altered { device in
                if let output = device.output {
                    device.isActive = output.deviceName != nil && output.deviceName == defaultSink
                } else {
                    device.isActive = device.input?.deviceName != nil && device.input?.deviceName == defaultSource
                }
            }
        }
    }

    /// A device as the machine is given it now.
    func device(_ id: AudioDevice.ID) -> AudioDevice? { devices.first { $0.id == id } }

    mutating func advance(_ duration: Duration) { now += duration }

    mutating func start(configured: ConfiguredDefaults? = nil) -> [RouteAction] {
        let actions = machine.start(devices: devices, defaultSink: defaultSink, defaultSource: defaultSource,
                                    configured: configured, now: now)
        return machine.followMicrophone(actions)
    }

    /// An API call, as the engine hands it over (the microphone's mute followed after it).
    mutating func handle(_ command: RouteCommand) -> [RouteAction] {
        let actions = machine.handle(command, now: now)
        return machine.followMicrophone(actions)
    }

    /// The server goes away: the client says it reconnects (attempt `attempt`, after `error`).
    mutating func loseConnection(attempt: Int = 1, _ error: PulseError = MachineRig.lostServer) -> [RouteAction] {
        let actions = machine.connectionChanged(to: .reconnecting(attempt: attempt, lastError: error))
        return machine.followMicrophone(actions)
    }

    /// What `PulseClient` says when the server dies.
    static let lostServer = PulseError(.connectionTerminated, operation: "connect to the server")
    /// What it says when an attempt to reconnect finds no server.
    static let refused = PulseError(.connectionRefused, operation: "connect to the server")

    /// Devices appear (newest last). `defaultSink` is where the server puts the default then,
    /// when it moves it (module-switch-on-connect would).
    mutating func plug(_ new: AudioDevice..., defaultSink: String? = nil) -> [RouteAction] {
        shown += new
        if let defaultSink { self.defaultSink = defaultSink }
        return notify(added: Set(new.map(\.id)), removed: [])
    }

    /// Devices go. When the default sink or source goes with them, the server falls back to
    /// `defaultSink` (or, without one, to the first sink left), as servers do.
    mutating func unplug(_ ids: AudioDevice.ID..., defaultSink: String? = nil, defaultSource: String? = nil) -> [RouteAction] {
        let gone = shown.filter { ids.contains($0.id) }
        shown.removeAll { ids.contains($0.id) }
        if let defaultSink {
            self.defaultSink = defaultSink
        } else if gone.contains(where: { $0.output?.deviceName == self.defaultSink }) {
            self.defaultSink = shown.compactMap(\.output?.deviceName).first
        }
        if let defaultSource {
            self.defaultSource = defaultSource
        } else if gone.contains(where: { $0.input?.deviceName == self.defaultSource }) {
            self.defaultSource = shown.compactMap(\.input?.deviceName).first
        }
        return notify(added: [], removed: Set(ids))
    }

    /// A device changes in place (availability, profile, ...): same id. Optionally the
    /// defaults move in the same batch of events.
    mutating func change(_ device: AudioDevice, defaultSink: String? = nil, defaultSource: String? = nil) -> [RouteAction] {
        guard let index = shown.firstIndex(where: { $0.id == device.id }) else { return [] }
        shown[index] = device
        if let defaultSink { self.defaultSink = defaultSink }
        if let defaultSource { self.defaultSource = defaultSource }
        return notify(added: [], removed: [])
    }

    /// Someone (a settings panel, pactl, WirePlumber, or the server doing what the machine
    /// asked) sets the defaults; the machine hears it on its event stream.
    mutating func serverSetsDefaults(sink: String?, source: String? = nil) -> [RouteAction] {
        defaultSink = sink
        if let source { defaultSource = source }
        return notify(added: [], removed: [])
    }

    /// The server does what a route plan asks (its defaults) and reports it.
    mutating func confirm(_ plan: RoutePlan) -> [RouteAction] {
        serverSetsDefaults(sink: plan.sink, source: plan.setsSource ? plan.source : nil)
    }

    /// Performs every route plan in `actions` as a willing server would, and those that
    /// follow, until the machine asks for nothing more; returns everything the machine said
    /// after `actions`.
    mutating func settle(_ actions: [RouteAction]) -> [RouteAction] {
        var said: [RouteAction] = []
        var plans = actions.plans
        var rounds = 0
        while let plan = plans.first, rounds < 10 {
            rounds += 1
            let next = confirm(plan)
            said += next
            plans = next.plans
        }
        return said
    }

    /// What the machine would be told if nothing but time passed: its deadline, if any.
    mutating func passDeadline() -> [RouteAction] {
        // A switch's recheck comes first: the engine's renewed connection read nothing new.
        if machine.pending?.recheck != nil { _ = machine.confirmationRechecked() }
        if let deadline = machine.deadline, deadline > now { now = deadline }
        let actions = machine.deadlinePassed(now: now)
        return machine.followMicrophone(actions)
    }

    private mutating func notify(added: Set<AudioDevice.ID>, removed: Set<AudioDevice.ID>) -> [RouteAction] {
        let actions = machine.update(devices: devices, defaultSink: defaultSink, defaultSource: defaultSource,
                                     added: added, removed: removed, now: now)
        return machine.followMicrophone(actions)
    }
}

/// A route change as an event reports it, by device id.
struct SeenRouteChange: Equatable, CustomStringConvertible {
    var from: AudioDevice.ID?
    var to: AudioDevice.ID?
    var reason: RouteChangeReason

    init(_ from: AudioDevice.ID?, _ to: AudioDevice.ID?, _ reason: RouteChangeReason) {
        self.from = from
        self.to = to
        self.reason = reason
    }

    var description: String { "\(from?.rawValue ?? "none") -> \(to?.rawValue ?? "none") (\(reason))" }
}

extension Array where Element == RouteAction {
    /// The events, in order.
    var events: [AudioRouteEvent] {
        compactMap { action in
            guard case .emit(let event) = action else { return nil }
            return event
        }
    }

    /// The route changes reported.
    var routeChanges: [SeenRouteChange] {
        events.compactMap { event in
            guard case .routeChanged(let from, let to, let reason) = event else { return nil }
            return SeenRouteChange(from?.id, to?.id, reason)
        }
    }

    /// The route plans (switches asked for).
    var plans: [RoutePlan] {
        compactMap { action in
            guard case .route(let plan) = action else { return nil }
            return plan
        }
    }

    /// The devices the machine asked to route to, in order.
    var routedTo: [AudioDevice.ID] { plans.map(\.device.id) }

    /// The failures reported.
    var failures: [(device: AudioDevice.ID, failure: SwitchFailure)] {
        events.compactMap { event in
            guard case .switchFailed(let device, let failure) = event else { return nil }
            return (device.id, failure)
        }
    }

    /// The devices whose switch was reported failed.
    var failedDevices: [AudioDevice.ID] { failures.map(\.device) }

    /// The profile selections asked for.
    var profileSelections: [(card: String, profile: String, device: AudioDevice.ID)] {
        compactMap { action in
            guard case .selectProfile(let card, let profile, let device) = action else { return nil }
            return (card, profile, device)
        }
    }

    /// The stray moves asked for.
    var strayMoves: [RouteAction] {
        filter { action in
            guard case .moveStrays = action else { return false }
            return true
        }
    }

    /// The sources muted (true) or unmuted (false), in order.
    var sourceMutes: [(source: String, muted: Bool)] {
        compactMap { action in
            guard case .muteSource(let source, let muted) = action else { return nil }
            return (source, muted)
        }
    }

    /// The refusals answered.
    var refusals: [CommandRefusal] {
        compactMap { action in
            guard case .refuse(let refusal) = action else { return nil }
            return refusal
        }
    }

    /// Whether any action switches something (a profile or a route) or moves streams.
    var switchesAnything: Bool { !plans.isEmpty || !profileSelections.isEmpty || !strayMoves.isEmpty }
}

/// A refusal by the server, about the device.
func refusal(_ step: SwitchFailure.Step = .defaultSink, _ code: PulseError.Code = .noSuchEntity) -> SwitchFailure {
    SwitchFailure(step: step, code: code, message: "the server refused")
}

extension MachineRig {
    /// Started on `speaker` with `preferences` and settled there, with `devices` present too.
    static func settled(on speaker: AudioDevice, _ preferences: [AudioPreference], also devices: [AudioDevice] = []) -> MachineRig {
        var rig = MachineRig([speaker] + devices, defaultSink: speaker.sinkName, preferences: PreferenceList(preferences))
        _ = rig.settle(rig.start())
        return rig
    }
}
