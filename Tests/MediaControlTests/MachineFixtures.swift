@testable import MediaControl
import PulseAudio
import RouteKit

/// Values the machine's tests share: a headset (private), a laptop sink with a headphones
/// port (private) and a speaker port (public), a speaker sink (public), and a second headset
/// (private, USB).
enum Fixture {
    static let headset = SinkInfo.fixture(index: 1, name: "bt_headset")
    static let speaker = SinkInfo.fixture(index: 2, name: "speaker")
    static let laptopOnHeadphones = SinkInfo.fixture(index: 3, name: "laptop", ports: [("headphones", .available), ("speaker", .unknown)],
                                                     active: "headphones")
    static let usbHeadset = SinkInfo.fixture(index: 4, name: "usb_headset")
    static let musicPID: UInt32 = 4242

    static let devices: [AudioDevice] = [
        device("bt_headset", kind: .bluetooth, sink: "bt_headset", port: nil),
        device("speaker", kind: .speakerphone, sink: "speaker", port: nil),
        device("laptop/headphones", kind: .wiredHeadset, sink: "laptop", port: "headphones"),
        device("laptop/speaker", kind: .speakerphone, sink: "laptop", port: "speaker"),
        device("usb_headset", kind: .wiredHeadset, sink: "usb_headset", port: nil),
    ]

    static func device(_ id: String, kind: AudioDeviceKind, sink: String, port: String?) -> AudioDevice {
        AudioDevice(id: AudioDevice.ID(rawValue: id), kind: kind, description: id, bus: nil, formFactor: nil,
                    availability: .available, isActive: false, card: nil,
                    output: AudioDevice.Endpoint(deviceName: sink, port: port, description: id), input: nil,
                    requiredProfile: nil)
    }

    static func stream(_ index: UInt32, on sink: UInt32, pid: UInt32? = musicPID, role: String? = nil,
                       application: String? = nil, corked: Bool = false, muted: Bool = false) -> SinkInputInfo {
        var properties: [String: String] = [:]
        if let pid { properties["application.process.id"] = String(pid) }
        if let role { properties["media.role"] = role }
        if let application { properties["application.name"] = application }
        return SinkInputInfo(index: index, name: "Music", client: nil, ownerModule: nil, sink: sink,
                             volume: ChannelVolumes([65536, 65536]), isMuted: muted, isCorked: corked, properties: properties)
    }

    static func player(_ name: String = "org.mpris.MediaPlayer2.music", pid: UInt32? = musicPID,
                       _ status: PlaybackStatus = .playing) -> MediaPlayer {
        MediaPlayer(name: name, processID: pid, status: status)
    }

    /// The music player, playing, paused or stopped.
    static func player(_ status: PlaybackStatus) -> MediaPlayer { player("org.mpris.MediaPlayer2.music", status) }

    /// A machine that knows the fixture's devices and sinks, the default on `defaultSink`.
    static func machine(settings: MediaSettings = MediaSettings(), sinks: [SinkInfo] = [headset, speaker],
                        streams: [SinkInputInfo], defaultSink: String = "bt_headset",
                        players: [MediaPlayer] = [], now: ContinuousClock.Instant) -> MediaMachine {
        var machine = MediaMachine(settings: settings)
        _ = machine.devicesChanged(devices, now: now)
        _ = machine.reset(sinks: sinks, streams: streams, defaultSink: defaultSink, now: now)
        _ = machine.playersReset(players, now: now)
        return machine
    }
}

extension SinkInfo {
    static func fixture(index: UInt32, name: String, ports: [(String, PortAvailability)] = [], active: String? = nil) -> SinkInfo {
        SinkInfo(index: index, name: name, description: name, driver: "test", ownerModule: nil, card: nil, isMuted: false,
                 volume: ChannelVolumes([65536, 65536]), baseVolume: 65536, monitorSourceName: name + ".monitor",
                 state: .running, ports: ports.enumerated().map { offset, port in
                     DevicePort(name: port.0, description: port.0, priority: UInt32(100 - offset), availability: port.1,
                                type: .unknown, availabilityGroup: nil)
                 }, activePortName: active, properties: [:])
    }

    /// The same sink on another port, with these availabilities.
    func on(_ port: String, _ availability: [String: PortAvailability]) -> SinkInfo {
        var sink = self
        sink.activePortName = port
        sink.ports = ports.map { var port = $0; port.availability = availability[port.name] ?? port.availability; return port }
        return sink
    }
}

extension Array where Element == MediaAction {
    var mutes: [UInt32] { compactMap { if case .mute(let index) = $0 { index } else { nil } } }
    var unmutes: [UInt32] { compactMap { if case .unmute(let index) = $0 { index } else { nil } } }
    var pauses: [String] { compactMap { if case .pause(let name) = $0 { name } else { nil } } }
    var plays: [String] { compactMap { if case .play(let name) = $0 { name } else { nil } } }
    /// The events, but the players' own news (``MediaEvent/player(_:)``), which tests check apart.
    var events: [MediaEvent] {
        compactMap { action in
            guard case .emit(let event) = action else { return nil }
            if case .player = event { return nil }
            return event
        }
    }
    /// The actions, without the players' own news.
    var decisions: [MediaAction] {
        filter { if case .emit(.player) = $0 { false } else { true } }
    }
}
