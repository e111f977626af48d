import BenchmarkSupport
import Foundation
import Logging
import PulseAudio
import SoundServerSandbox

/// One sandboxed server set up for the leak: the loudspeaker (a null sink with
/// `device.form_factor=internal`, the default between rounds) recorded from its monitor for
/// the whole run, a driver connection that plugs and unplugs headsets, and an observer
/// connection that watches the stream.
///
/// Not `Sendable`: one task drives it from start to end.
final class LeakRig {
    /// The loudspeaker's sink name.
    static let speaker = "builtin_speaker"

    let server: SandboxServer
    let driver: PulseClient
    let observer: PulseClient
    let recorder: MonitorRecorder
    let options: LeakOptions
    /// The raw tone pacat plays.
    let toneFile: String
    /// The same tone as a WAV file, for a real player.
    let waveFile: String
    private var headsets = 0

    /// Loads the loudspeaker, makes it the default, connects, and starts the recording.
    init(server: SandboxServer, options: LeakOptions, toneFile: String, waveFile: String, directory: String) async throws {
        self.server = server
        self.options = options
        self.toneFile = toneFile
        self.waveFile = waveFile
        var logger = Logger(label: "media-leak")
        logger.logLevel = .warning
        driver = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "leak-driver"), logger: logger)
        observer = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "leak-observer"), logger: logger)
        try await driver.connect()
        try await observer.connect()
        _ = try await driver.loadModule("module-null-sink", arguments: Self.nullSinkArguments(
            Self.speaker, ["device.form_factor": "internal", "device.description": "Built-in Speaker"]))
        try await driver.setDefaultSink(Self.speaker)
        // A stream asked for the device that is the default when it starts follows the
        // default from then on (PulseAudio 16): the recording would follow the default sink's
        // monitor to each headset. It starts while another sink is the default.
        let elsewhere = try await driver.loadModule("module-null-sink", arguments: Self.nullSinkArguments(
            "leak_setup", ["device.description": "Leak setup"]))
        try await driver.setDefaultSink("leak_setup")
        // And a source of its own stays the default source: once the setup sink goes, PulseAudio
        // would otherwise make the speaker's monitor the default source, and a stream on the
        // default follows it again.
        _ = try await driver.loadModule("module-pipe-source", arguments:
            "source_name=leak_quiet file=\(directory)/leak_quiet-\(server.kind).fifo "
            + "source_properties=\"device.description='Leak quiet source'\"")
        // (pipewire-pulse answers the load before the source exists.)
        let deadline = ContinuousClock.now + .seconds(5)
        while try await observer.source(named: "leak_quiet") == nil {
            guard ContinuousClock.now < deadline else { throw LeakError("the quiet source did not appear within 5 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
        try await driver.setDefaultSource("leak_quiet")
        recorder = try await MonitorRecorder(server: server, monitor: Self.speaker + ".monitor", latency: options.recordLatency,
                                             log: directory + "/parec-\(server.kind).log")
        // pipewire-pulse and WirePlumber make it follow the default all the same; a client's
        // move is what pins a stream on PipeWire (the move sets its target in the metadata).
        let recording = try await observer.sourceOutputs().first { $0.properties["application.name"] == "media-leak-recorder" }
        guard let recording else { throw LeakError("the recorder's stream is not listed") }
        try await driver.moveSourceOutput(recording.index, toSource: Self.speaker + ".monitor")
        try await driver.setDefaultSink(Self.speaker)
        try await driver.unloadModule(elsewhere)
        try await settle("the default back on the speaker") {
            try await self.observer.serverInfo().defaultSinkName == Self.speaker
        }
        try await expectRecordingOnSpeaker()
    }

    /// Stops the recording and closes both connections.
    func shutdown() async {
        await recorder.stop()
        driver.shutdown()
        observer.shutdown()
    }

    /// `module-null-sink` arguments at 48 kHz (so that nothing is resampled on PulseAudio),
    /// quoted as the sandbox quotes them.
    static func nullSinkArguments(_ name: String, _ properties: [String: String]) -> String {
        let list = properties.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return "sink_name=\(name) rate=\(MonitorRecorder.rate) channels=2 sink_properties=\"\(list)\""
    }

    // MARK: Waiting

    /// Waits until `condition` holds, checking it now and after each observer event; throws
    /// after `limit`.
    func settle(_ what: String, within limit: Duration = .seconds(10),
                _ condition: @escaping () async throws -> Bool) async throws {
        let events = observer.events()
        let deadline = ContinuousClock.now + limit
        if try await condition() { return }
        let ticks = AsyncStream<Void> { continuation in
            let forwarding = Task {
                for await _ in events { continuation.yield() }
                continuation.finish()
            }
            let timer = Task {
                try? await Task.sleep(until: deadline)
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forwarding.cancel()
                timer.cancel()
            }
        }
        for await _ in ticks {
            if try await condition() { return }
            if ContinuousClock.now >= deadline { break }
        }
        if try await condition() { return }
        throw LeakError("\(what): not within \(limit)")
    }

    /// The sink input the process `pid` plays as, as the observer reads it.
    func stream(of pid: Int32) async throws -> SinkInputInfo? {
        try await observer.sinkInputs().first { $0.properties["application.process.id"] == String(pid) }
    }

    /// Waits until the recording has been silent for `quiet` (a stream just stopped may still
    /// be rendered for a while).
    func awaitSilence(_ quiet: Duration = .milliseconds(150), within limit: Duration = .seconds(5)) async throws {
        let windows = Int(quiet.milliseconds)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let count = recorder.windowCount
            if let loud = recorder.lastLoudWindow, loud >= count - windows {
                _ = await recorder.waitUntil(frames: (loud + windows + 1) * MonitorRecorder.windowFrames, within: limit)
                continue
            }
            if count >= windows { return }
            _ = await recorder.waitUntil(frames: (windows + 1) * MonitorRecorder.windowFrames, within: limit)
        }
        throw LeakError("the loudspeaker did not fall silent within \(limit)")
    }

    /// Waits until `sink` renders no further ahead than twice the stream's buffer, as
    /// `pactl list sinks` reads its latency (checked every 50 ms, up to 5 s): the steady state
    /// of a stream that has played for a while.
    ///
    /// PulseAudio 16's null sink renders ahead by its largest latency (2 s) while nothing asks
    /// for less, from its creation on; once a stream asks for less it stops rendering until
    /// the clock catches up. A stream moved away before then carries that head start with it
    /// (PulseAudio plays the moved stream on the new sink after silence for what the old one
    /// had rendered ahead), which no real headset would do. So every round waits for it.
    func awaitSteadyLatency(of sink: String) async throws {
        let limit = Int(options.streamLatency.milliseconds) * 2 * 1000
        let deadline = ContinuousClock.now + .seconds(5)
        var latest = "no reading"
        while ContinuousClock.now < deadline {
            let listing = try await server.pactl("list", "sinks")
            var inSink = false
            for line in listing.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("Name:") { inSink = trimmed == "Name: \(sink)" }
                guard inSink, trimmed.hasPrefix("Latency:") else { continue }
                latest = trimmed
                if let microseconds = trimmed.split(separator: " ").dropFirst().first.flatMap({ Int($0) }), microseconds <= limit {
                    return
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LeakError("\(sink) did not settle within 5 s: \(latest)")
    }

    /// Moves the recorder's stream back to the speaker's monitor if the server moved it
    /// (WirePlumber sometimes still moves it with the default sink), and waits until it is
    /// there; returns whether it had to.
    @discardableResult
    func repinRecording() async throws -> Bool {
        let monitor = try await observer.sink(named: Self.speaker)?.monitorSourceName ?? Self.speaker + ".monitor"
        guard let recording = try await observer.sourceOutputs().first(where: { $0.properties["application.name"] == "media-leak-recorder" }) else {
            throw LeakError("the recorder's stream is not listed")
        }
        if try await observer.source(at: recording.source)?.name == monitor { return false }
        try await driver.moveSourceOutput(recording.index, toSource: monitor)
        try await settle("the recording back on the speaker's monitor") {
            guard let now = try await self.observer.sourceOutput(at: recording.index) else { return false }
            return try await self.observer.source(at: now.source)?.name == monitor
        }
        repins += 1
        return true
    }

    /// How many times the recording had to be moved back to the speaker's monitor.
    private(set) var repins = 0

    /// Throws unless the recorder's stream still records the speaker's monitor.
    func expectRecordingOnSpeaker() async throws {
        let monitor = try await observer.sink(named: Self.speaker)?.monitorSourceName
        let recording = try await observer.sourceOutputs().first { $0.properties["application.name"] == "media-leak-recorder" }
        var source: String?
        if let recording { source = try await observer.source(at: recording.source)?.name }
        guard let source, source == monitor else {
            throw LeakError("the recording left the speaker's monitor: it records \(source ?? "nothing")")
        }
    }

    // MARK: One round

    /// Plugs a headset, plays the tone on it, unplugs it, and measures what the loudspeaker
    /// rendered in the window after the unplug.
    func round(_ switcher: any LeakSwitcher) async throws -> LeakRound {
        headsets += 1
        let headset = "bluez_output.leak_\(headsets)"
        try await driver.setDefaultSink(Self.speaker)
        let module = try await driver.loadModule("module-null-sink", arguments: Self.nullSinkArguments(headset, [
            "device.bus": "bluetooth", "device.form_factor": "headset", "device.api": "bluez5",
            "device.description": "Leak Headset",
        ]))
        var playing: (any LeakTone)?
        do {
            // What a switch-on-connect does (RouteKit's manager does it too): the headset becomes
            // the default, and the player's stream follows the default.
            try await driver.setDefaultSink(headset)
            try await settle("\(headset) the default") { try await self.observer.serverInfo().defaultSinkName == headset }
            try await repinRecording()
            let tone = try await switcher.play(self, name: "media-leak-tone-\(server.kind)-\(headsets)")
            playing = tone
            let headsetIndex = try await observer.sink(named: headset)?.index
            try await settle("the tone playing on \(headset)") {
                try await self.stream(of: tone.processID).map { $0.sink == headsetIndex && !$0.isCorked } ?? false
            }
            let heard = recorder.frames
            _ = await recorder.waitUntil(frames: heard + Int(options.settle.milliseconds) * MonitorRecorder.windowFrames,
                                         within: .seconds(5))
            try await awaitSteadyLatency(of: headset)
            guard let input = try await stream(of: tone.processID), input.sink == headsetIndex else {
                throw LeakError("the tone left \(headset) before the unplug")
            }
            guard !input.isMuted else { throw LeakError("the tone's stream started muted (a server restored a mute)") }
            let speakerIndex = try await observer.sink(named: Self.speaker)?.index
            try await expectRecordingOnSpeaker()
            let watch = StreamWatch(observer: observer, stream: input.index, speaker: speakerIndex)

            let issued = ContinuousClock.now
            try await driver.unloadModule(module)
            let answered = ContinuousClock.now
            let start = recorder.frames(readBy: issued) / MonitorRecorder.windowFrames
            let window = Int(options.window.milliseconds)
            _ = await recorder.waitUntil(frames: (start + window + 1) * MonitorRecorder.windowFrames,
                                         within: options.window + .seconds(5))
            let seen = await watch.finish()
            let loud = recorder.loudWindows(start..<(start + window))
            let before = recorder.loudWindows(max(0, start - 200)..<start)
            await tone.stop()
            playing = nil
            try await awaitSilence()
            return LeakRound(
                leaked: loud.count, windows: window, peak: recorder.peakDecibels(start..<(start + window)),
                firstSound: loud.first.map { $0 - start },
                firstSoundArrival: loud.first.flatMap { recorder.arrival(ofFrame: $0 * MonitorRecorder.windowFrames) }.map { $0 - issued },
                lastSound: loud.last.map { $0 - start },
                soundBefore: before.count,
                unplugAnswered: answered - issued,
                held: switcher.heldInstant(after: issued).map { $0 - issued },
                movedSeen: seen.moved.map { $0 - issued },
                mutedSeen: seen.muted.map { $0 - issued },
                unmutedAgainSeen: seen.unmuted.map { $0 - issued })
        } catch {
            await playing?.stop()
            try? await driver.unloadModule(module)
            throw error
        }
    }
}

/// What one round measured; offsets in milliseconds of the recording from the unplug's
/// window, durations from the unplug request.
struct LeakRound {
    /// 1 ms windows above −60 dBFS in the window after the unplug.
    var leaked: Int
    /// The window's length in milliseconds.
    var windows: Int
    /// The window's highest peak, in dBFS.
    var peak: Double
    /// The first loud window, counted from the window's start.
    var firstSound: Int?
    /// When the recorder received the first loud window.
    var firstSoundArrival: Duration?
    /// The last loud window, counted from the window's start.
    var lastSound: Int?
    /// Loud windows in the 200 ms before the window (must be 0: the loudspeaker is silent before the unplug).
    var soundBefore: Int
    /// The unplug request's round trip.
    var unplugAnswered: Duration
    /// When the switcher said it held the stream.
    var held: Duration?
    /// When the observer read the stream on the loudspeaker.
    var movedSeen: Duration?
    /// When the observer read the stream muted.
    var mutedSeen: Duration?
    /// When the observer read it unmuted again after that (nobody but the guard unmutes
    /// within the window: on PipeWire, the stream's relinking does).
    var unmutedAgainSeen: Duration?
}
