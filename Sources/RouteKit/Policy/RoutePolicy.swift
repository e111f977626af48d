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
    /// (higher is newer); devices it lacks count as oldest. `devices` names each device once,
    /// as ``DeviceModel`` and ``DeviceList`` give them.
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
        // What earlier tiers took, without hashing ids: a kind entry takes every device of its
        // kind it admits; the selection and device entries one device each (a few ids).
        var takenIDs: [AudioDevice.ID] = []
        var takenKinds: [AudioDeviceKind] = []
        func admitsByKind(_ device: AudioDevice) -> Bool {
            device.kind.isSelectableByKind && automatic.mayChooseByKind(device)
        }
        func isTaken(_ device: AudioDevice) -> Bool {
            takenIDs.contains(device.id) || (takenKinds.contains(device.kind) && admitsByKind(device))
        }
        if let selection, let chosen = usable.first(where: { $0.id == selection }) {
            tiers.append([chosen])
            takenIDs.append(chosen.id)
        }
        for preference in preferences {
            switch preference {
            case .kind(let kind):
                guard !takenKinds.contains(kind) else { continue }
                let admitted = usable.filter { $0.kind == kind && admitsByKind($0) && !takenIDs.contains($0.id) }
                takenKinds.append(kind)
                if !admitted.isEmpty { tiers.append(ordered(admitted, arrivals: arrivals)) }
            case .device(let id):
                guard let device = usable.first(where: { $0.id == id }), !isTaken(device) else { continue }
                tiers.append([device])
                takenIDs.append(device.id)
            }
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

    /// Available before unknown availability, then the newest arrival first, then by id.
    private static func ordered(_ devices: [AudioDevice], arrivals: [AudioDevice.ID: Int]) -> [AudioDevice] {
        guard devices.count > 1 else { return devices }
        // Each device's arrival looked up once, not at every comparison.
        return devices.map { (device: $0, arrival: arrivals[$0.id] ?? Int.min) }
            .sorted { a, b in
                let aAvailable = a.device.availability == .available, bAvailable = b.device.availability == .available
                if aAvailable != bAvailable { return aAvailable }
                if a.arrival != b.arrival { return a.arrival > b.arrival }
                return a.device.id.rawValue < b.device.id.rawValue
            }
            .map(\.device)
    }
}
