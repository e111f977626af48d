import DBus
import RouteKit

/// routectl's commands while the daemon runs: each is a call to its D-Bus API
/// (io.github.routekit.RouteKit1, Docs/DBus.md), so that the daemon decides, keeps the
/// choice and the preferences, and answers once its engine has settled. The daemon's errors
/// become the same ``RouteCtlFailure``s, with the same exit statuses, as the direct
/// commands' (``DaemonErrorMapping``).
struct DaemonRoutingControl: RoutingControl {
    /// The calls.
    let bus: DaemonBus
    /// The daemon's process id, as the bus tells it.
    let processID: UInt32?

    /// The daemon.
    var answerer: RoutingAnswerer { .daemon }

    /// `Use(s)`: the daemon resolves the name, chooses the device and keeps it while present.
    func use(_ target: String) async throws -> AudioDevice {
        let reply = try await bus.call("Use", [.string(target)], target: target)
        return try await device(reply.first?.stringValue ?? "", chosenFor: target)
    }

    /// `ClearSelection()`; false, without a call, when nothing was chosen by hand.
    func clearSelection() async throws -> Bool {
        guard (try await bus.status()["Selection"]?.stringValue ?? "") != "" else { return false }
        _ = try await bus.call("ClearSelection")
        return true
    }

    /// `SetPreferences(as)`: the daemon keeps them in its state file.
    func setPreferences(_ entries: [String]) async throws {
        _ = try await bus.call("SetPreferences", [.strings(entries)])
    }

    /// `ClearPreferences()`: the configured ones apply again.
    func clearPreferences() async throws {
        _ = try await bus.call("ClearPreferences")
    }

    /// `StartCall()` or `EndCall()`, unless call audio already is as asked.
    func setCallAudio(_ isOn: Bool) async throws -> Bool {
        guard try await bus.status()["CallAudio"]?.boolValue != isOn else { return false }
        _ = try await bus.call(isOn ? "StartCall" : "EndCall")
        return true
    }

    /// `EnableSpeaker(b)`; returns the route after.
    func setSpeaker(_ isOn: Bool) async throws -> AudioDevice? {
        _ = try await bus.call("EnableSpeaker", [.boolean(isOn)], target: isOn ? AudioDeviceKind.speakerphone.rawValue : nil)
        let route = try await bus.status()["Route"]?.stringValue ?? ""
        return route.isEmpty ? nil : try await devices().first { $0.id.rawValue == route }
    }

    /// `MuteMic(b)`; returns the input the daemon records from, or says "the default source".
    func setMicrophoneMuted(_ isMuted: Bool) async throws -> String {
        _ = try await bus.call("MuteMic", [.boolean(isMuted)])
        let source = try await bus.status()["InputSource"]?.stringValue ?? ""
        return source.isEmpty ? "the default source" : source
    }

    /// `Status()` and `ListDevices()`.
    func status() async throws -> RoutingStatus {
        async let record = bus.status()
        async let devices = devices()
        return try await DaemonRecords.status(record, devices: devices, processID: processID)
    }

    private func devices() async throws -> [AudioDevice] {
        try await bus.devices().compactMap(DaemonRecords.device)
    }

    /// The device `id` the daemon chose for `target`.
    private func device(_ id: String, chosenFor target: String) async throws -> AudioDevice {
        guard let device = try await devices().first(where: { $0.id.rawValue == id }) else {
            throw RouteCtlFailure.noSuchDevice("the daemon chose \"\(id)\" for \(target), and it is gone already.")
        }
        return device
    }
}
