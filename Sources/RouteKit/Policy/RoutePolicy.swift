import PulseAudio

/// The order in which an ``AudioDeviceManager`` tries devices: a pure function of the devices
/// present, the preference list and the manual selection, so that the same devices always
/// give the same answer, however they got there.
///
/// 1. The manual selection, while its device is present and not unavailable.
/// 2. Each preference entry in turn: a `.device` entry gives that device (any kind, HDMI and
///    virtual included); a `.kind` entry gives the present devices of that kind (never
///    `external` or `virtual`, nor what ``AutomaticChoice`` rules out), ordered as below.
/// 3. Nothing else: when no entry matches, the server's own choice stands.
///
/// Devices an entry matches are ordered: available before unknown availability (a jack
/// without detection, a Bluetooth port), then the most recently connected first (the headset
/// just switched on wins, as people expect), then by id. Unavailable devices are never tried,
/// nor are devices without an output.
public enum RoutePolicy {
    /// The devices to try, best first. `arrivals` numbers devices in the order they appeared
    /// (higher is newer); devices it lacks count as oldest.
    public static func candidates(among devices: [AudioDevice], preferences: [AudioPreference],
                                  selection: AudioDevice.ID?, arrivals: [AudioDevice.ID: Int] = [:],
                                  automatic: AutomaticChoice = AutomaticChoice()) -> [AudioDevice] {
        tiers(among: devices, preferences: preferences, selection: selection, arrivals: arrivals, automatic: automatic)
            .flatMap { $0 }
    }

    /// The same devices grouped by what admits them: the manual selection, then each
    /// preference entry in turn; empty tiers are left out and a device appears only in the
    /// first tier that admits it. A route already on any device of the first tier satisfies
    /// the preferences as well as the tier's first device does. A kind entry admits only the
    /// devices `automatic` lets it choose.
    package static func tiers(among devices: [AudioDevice], preferences: [AudioPreference],
                             selection: AudioDevice.ID?, arrivals: [AudioDevice.ID: Int] = [:],
                             automatic: AutomaticChoice = AutomaticChoice()) -> [[AudioDevice]] {
        let usable = devices.filter(isUsable)
        var tiers: [[AudioDevice]] = []
        var taken = Set<AudioDevice.ID>()
        func add(_ matching: [AudioDevice]) {
            let fresh = matching.filter { taken.insert($0.id).inserted }
            if !fresh.isEmpty { tiers.append(fresh) }
        }
        if let selection { add(usable.filter { $0.id == selection }) }
        for preference in preferences {
            let admitted = usable.filter { device in
                guard preference.matches(device) else { return false }
                if case .kind = preference { return automatic.mayChooseByKind(device) }
                return true
            }
            add(admitted.sorted { precedes($0, $1, arrivals: arrivals) })
        }
        return tiers
    }

    /// Whether a device can carry a route: it has an output, is not known to be unavailable,
    /// and has a sink now or a profile that brings one (a card whose sink is gone while its
    /// profile stays, as on the way out, is not usable).
    public static func isUsable(_ device: AudioDevice) -> Bool {
        guard let output = device.output, device.availability != .unavailable else { return false }
        return output.deviceName != nil || device.requiredProfile != nil
    }

    private static func precedes(_ a: AudioDevice, _ b: AudioDevice, arrivals: [AudioDevice.ID: Int]) -> Bool {
        let aAvailable = a.availability == .available, bAvailable = b.availability == .available
        if aAvailable != bAvailable { return aAvailable }
        let aArrival = arrivals[a.id] ?? Int.min, bArrival = arrivals[b.id] ?? Int.min
        if aArrival != bArrival { return aArrival > bArrival }
        return a.id.rawValue < b.id.rawValue
    }
}
