import Foundation
import Glibc
import PipeWireDefaults
import PulseAudio
import RouteKit
import SoundServerSandbox
import TestSupport
import Testing

/// `PipeWireConfiguredDefaults`: its parser on pw-metadata's output (as PipeWire 0.3.65
/// prints it), running the program, and reading a real sandboxed PipeWire.
@Suite("PipeWire configured defaults")
struct PipeWireConfiguredDefaultsTests {
    typealias Reader = PipeWireConfiguredDefaults

    /// What `pw-metadata -n default 0` printed on this machine (PipeWire 0.3.65, WirePlumber
    /// 0.4.13) after `pactl set-default-sink b`: WirePlumber writes the compact form,
    /// pipewire-pulse the spaced one.
    static let realOutput = """
        Found "default" metadata 35
        update: id:0 key:'default.audio.sink' value:'{"name":"b"}' type:'Spa:String:JSON'
        update: id:0 key:'default.audio.source' value:'{"name":"a"}' type:'Spa:String:JSON'
        update: id:0 key:'default.configured.audio.sink' value:'{ "name": "b" }' type:'Spa:String:JSON'

        """

    // MARK: Parsing the output

    @Test("the configured sink from real output; the source is not configured")
    func realOutputParses() throws {
        let defaults = try Reader.parse(Self.realOutput)
        #expect(defaults == ConfiguredDefaults(sink: "b", source: nil))
    }

    @Test("defaults in use (default.audio.*) are not configured defaults")
    func inUseIsNotConfigured() throws {
        let output = """
            Found "default" metadata 35
            update: id:0 key:'default.audio.sink' value:'{"name":"auto_null"}' type:'Spa:String:JSON'
            update: id:0 key:'default.audio.source' value:'{"name":"auto_null"}' type:'Spa:String:JSON'
            """
        #expect(try Reader.parse(output) == ConfiguredDefaults(sink: nil, source: nil))
    }

    @Test("the defaults in use are read from default.audio.*, not from the configured keys")
    func inUse() throws {
        let inUse = try Reader.parse(Self.realOutput, keys: (sink: Reader.effectiveSinkKey, source: Reader.effectiveSourceKey))
        #expect(inUse == ConfiguredDefaults(sink: "b", source: "a"))
        let configuredOnly = """
            Found "default" metadata 35
            update: id:0 key:'default.configured.audio.sink' value:'{ "name": "b" }' type:'Spa:String:JSON'
            """
        #expect(try Reader.parse(configuredOnly, keys: (sink: Reader.effectiveSinkKey, source: Reader.effectiveSourceKey))
                == ConfiguredDefaults(sink: nil, source: nil))
    }

    @Test("metadata with no keys at all: nothing configured")
    func noKeys() throws {
        #expect(try Reader.parse("Found \"default\" metadata 35\n") == ConfiguredDefaults(sink: nil, source: nil))
    }

    @Test("both keys configured")
    func bothAndRemoval() throws {
        let output = """
            Found "default" metadata 35
            update: id:0 key:'default.configured.audio.source' value:'{ "name": "mic" }' type:'Spa:String:JSON'
            update: id:0 key:'default.configured.audio.sink' value:'{"name":"usb_headset"}' type:'Spa:String:JSON'
            """
        #expect(try Reader.parse(output) == ConfiguredDefaults(sink: "usb_headset", source: "mic"))
    }

    @Test("other subjects and other keys are ignored")
    func otherSubjects() throws {
        let output = """
            Found "default" metadata 35
            update: id:57 key:'target.object' value:'{ "name": "x" }' type:'Spa:String:JSON'
            update: id:57 key:'default.configured.audio.sink' value:'garbage for another subject' type:''
            update: id:0 key:'default.video.source' value:'{ "name": "cam" }' type:'Spa:String:JSON'
            update: id:0 key:'default.configured.audio.sink' value:'{ "name": "speaker" }' type:'Spa:String:JSON'
            """
        #expect(try Reader.parse(output) == ConfiguredDefaults(sink: "speaker", source: nil))
    }

    @Test("a value holding the line's own delimiters still parses")
    func delimitersInValue() throws {
        let output = """
            Found "default" metadata 35
            update: id:0 key:'default.configured.audio.sink' value:'{ "name": "it's a ' type:'trap" }' type:'Spa:String:JSON'
            """
        #expect(try Reader.parse(output).sink == "it's a ' type:'trap")
    }

    // MARK: The SPA JSON value

    @Test("the forms of the value", arguments: [
        (#"{ "name": "usb_headset" }"#, "usb_headset"),
        (#"{"name":"usb_headset"}"#, "usb_headset"),
        ("{\n  \"name\" : \"usb_headset\"\n}", "usb_headset"),
        (#"{ name = usb_headset }"#, "usb_headset"),
        (#"{ "name" = "usb_headset" }"#, "usb_headset"),
        (#"{ "name": "Bose QC 35 II" }"#, "Bose QC 35 II"),
        (#"{ "name": "say \"hi\"" }"#, #"say "hi""#),
        (#"{ "name": "back\\slash\/x" }"#, #"back\slash/x"#),
        (#"{ "name": "tab\tnew\nline" }"#, "tab\tnew\nline"),
        (#"{ "name": "caf\u00e9 \ud83c\udfa7" }"#, "café 🎧"),
        (#"{ "name": "alsa_output.pci-0000_00_1f.3.analog-stereo" }"#, "alsa_output.pci-0000_00_1f.3.analog-stereo"),
        (#"{ "priority": 3, "props": { "name": "nested", "list": [ "a", "}" ] }, "name": "outer" }"#, "outer"),
        (#"{ "before": "x" "name": "no commas" }"#, "no commas"),
    ])
    func valueForms(value: String, expected: String) throws {
        #expect(try Reader.deviceName(fromJSON: value) == expected)
    }

    @Test("values that are not a default's name fail, saying why", arguments: [
        ("", "not a SPA JSON object"),
        ("usb_headset", "not a SPA JSON object"),
        (#"["usb_headset"]"#, "not a SPA JSON object"),
        (#"{ "nome": "usb_headset" }"#, "no \"name\""),
        ("{}", "no \"name\""),
        (#"{ "name": "unterminated }"#, "not closed"),
        (#"{ "name": "x""#, "not closed"),
        (#"{ "name": "" }"#, "empty"),
        (#"{ "name": 42 }"#, "not a string"),
        (#"{ "name": null }"#, "not a string"),
        (#"{ "name": { "inner": 1 } }"#, "not a string"),
        (#"{ "name": "x" } trailing"#, "text after the object"),
        (#"{ "name": "\u12" }"#, "four hexadecimal digits"),
    ])
    func badValues(value: String, reason: String) {
        let error = #expect(throws: Reader.Failure.self) { try Reader.deviceName(fromJSON: value) }
        guard let failure = unparseable(error) else { return }
        #expect(failure.line == value)
        #expect(failure.reason.contains(reason), "\(failure.reason)")
    }

    @Test("an unreadable configured value fails the parse, naming the key and the line")
    func badConfiguredValue() {
        let line = "update: id:0 key:'default.configured.audio.sink' value:'usb_headset' type:''"
        let error = #expect(throws: Reader.Failure.self) { try Reader.parse("Found \"default\" metadata 35\n\(line)\n") }
        guard let failure = unparseable(error) else { return }
        #expect(failure.line == line)
        #expect(failure.reason == "default.configured.audio.sink: not a SPA JSON object")
        #expect(error?.description == "cannot read pw-metadata's output \"\(line)\": default.configured.audio.sink: not a SPA JSON object")
    }

    @Test("garbage is not pw-metadata's output")
    func garbage() {
        let error = #expect(throws: Reader.Failure.self) { try Reader.parse("Segmentation fault\nsomething else\n") }
        guard let failure = unparseable(error) else { return }
        #expect(failure.line == "Segmentation fault")
        #expect(failure.reason.contains("not pw-metadata's output"))
    }

    @Test("an update line out of shape fails", arguments: [
        "update: id:0 key:'default.configured.audio.sink'",
        "update: id:zero key:'default.configured.audio.sink' value:'{}' type:''",
        "update: id:0 key:'default.configured.audio.sink' value:'{ \"name\": \"x\" }'",
    ])
    func malformedUpdate(line: String) {
        let error = #expect(throws: Reader.Failure.self) { try Reader.parse("Found \"default\" metadata 35\n\(line)\n") }
        guard let failure = unparseable(error) else { return }
        #expect(failure.line == line)
        #expect(failure.reason.contains("not an update line"))
    }

    /// The line and reason of `error`, which must be ``Reader/Failure/unparseable(line:reason:)``:
    /// any other error, or none, is recorded as an issue (and gives nil), never passed over.
    private func unparseable(_ error: Reader.Failure?, sourceLocation: SourceLocation = #_sourceLocation)
        -> (line: String, reason: String)? {
        guard case .unparseable(let line, let reason) = error else {
            Issue.record("expected .unparseable(line:reason:), got \(error.map { "\($0)" } ?? "no error")",
                         sourceLocation: sourceLocation)
            return nil
        }
        return (line, reason)
    }

    @Test("empty output: PipeWire has no default metadata")
    func emptyOutput() {
        #expect(throws: Reader.Failure.noMetadata) { try Reader.parse("") }
        #expect(Reader.Failure.noMetadata.description.contains("WirePlumber"))
    }

    // MARK: Running the program

    @Test("a missing pw-metadata is reported as missing, with where it was looked for")
    func missingTool() async {
        let reader = Reader(environment: ["PATH": "/nonexistent/bin:/also/not/here"], executable: "pw-metadata")
        await #expect(throws: Reader.Failure.toolMissing(executable: "pw-metadata",
                                                         searched: ["/nonexistent/bin", "/also/not/here"])) {
            try await reader.configuredDefaults()
        }
        let byPath = Reader(executable: "/nonexistent/pw-metadata")
        await #expect(throws: Reader.Failure.toolMissing(executable: "/nonexistent/pw-metadata", searched: [])) {
            try await byPath.configuredDefaults()
        }
        #expect(Reader.Failure.toolMissing(executable: "pw-metadata", searched: ["/a", "/b"]).description
                == "pw-metadata is not installed: not found in /a:/b (it comes with pipewire-bin)")
    }

    @Test("pw-metadata that cannot reach PipeWire fails with its status and standard error")
    func unreachable() async throws {
        let directory = try ReaderScratchFolder()
        let reader = Reader(environment: ["XDG_RUNTIME_DIR": directory.path, "PIPEWIRE_RUNTIME_DIR": directory.path,
                                          "HOME": directory.path])
        do {
            _ = try await reader.configuredDefaults()
            Issue.record("read configured defaults without a PipeWire")
        } catch let failure as Reader.Failure {
            guard case .failed(let status, let standardError) = failure else {
                Issue.record("expected a failure with a status, got \(failure)")
                return
            }
            #expect(status == 255)
            #expect(standardError.contains("can't connect"))
            #expect(failure.description.hasPrefix("pw-metadata failed with status 255: can't connect"))
        }
    }

    @Test("a hung pw-metadata is killed at the timeout")
    func hung() async throws {
        let directory = try ReaderScratchFolder()
        let script = try directory.write("hang", "#!/bin/sh\nexec sleep 600\n", executable: true)
        let reader = Reader(environment: ["PATH": "/usr/bin:/bin"], timeout: .milliseconds(300), executable: script)
        // The script sleeps 600 s; the guard fails the test after 15 s if the reader waits for it.
        await #expect(throws: Reader.Failure.timedOut(after: .milliseconds(300))) {
            try await withTimeout("the reader to give up") { try await reader.configuredDefaults() }
        }
    }

    @Test("cancelling the read kills pw-metadata")
    func cancelled() async throws {
        let directory = try ReaderScratchFolder()
        let script = try directory.write("hang", "#!/bin/sh\nexec sleep 600\n", executable: true)
        let reader = Reader(environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(600), executable: script)
        let task = Task { try await reader.configuredDefaults() }
        task.cancel()
        let result = try await withTimeout("the cancelled read") { await task.result }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("the program's output is what is parsed")
    func scriptedOutput() async throws {
        let directory = try ReaderScratchFolder()
        let script = try directory.write("fake-pw-metadata", """
            #!/bin/sh
            [ "$*" = "-n default 0" ] || { echo "unexpected arguments: $*" >&2; exit 3; }
            cat <<'EOF'
            \(Self.realOutput)update: id:0 key:'default.configured.audio.source' value:'{ "name": "mic 1" }' type:'Spa:String:JSON'
            EOF
            """, executable: true)
        let reader = Reader(environment: [:], executable: script)
        #expect(try await reader.configuredDefaults() == ConfiguredDefaults(sink: "b", source: "mic 1"))
        #expect(try await reader.effectiveDefaults() == ConfiguredDefaults(sink: "b", source: "a"))
    }

    // MARK: A real PipeWire

    @Test("on a sandboxed PipeWire: none configured, then what pactl set, then none again")
    func sandboxedPipeWire() async throws {
        try await SandboxServer.withServer(.pipewire) { server in
            let client = PulseClient(configuration: .init(server: server.serverAddress, applicationName: "routekit-configured"))
            defer { client.shutdown() }
            try await client.connect()
            let reader = Reader(environment: server.environment)
            _ = try await server.loadNullSink(name: "speaker", properties: ["device.form_factor": "speaker"])
            _ = try await server.loadNullSink(name: "usb_headset",
                                              properties: ["device.bus": "usb", "device.form_factor": "headset"])
            // WirePlumber has written its metadata once it has chosen a default.
            try await whileRenewing(client) {
                try await waitUntil("WirePlumber to choose a default sink", observer: client) {
                    let info = try await client.serverInfo()
                    let sinks = try await client.sinks().map(\.name)
                    return sinks.contains("speaker") && sinks.contains("usb_headset")
                        && (info.defaultSinkName == "speaker" || info.defaultSinkName == "usb_headset")
                }
            }
            #expect(try await reader.configuredDefaults() == ConfiguredDefaults(sink: nil, source: nil),
                    "a fresh PipeWire has no configured default")
            let chosen = try await reader.effectiveDefaults().sink
            #expect(chosen == "speaker" || chosen == "usb_headset", "WirePlumber's choice is in use: \(chosen ?? "none")")

            _ = try await server.pactl("set-default-sink", "usb_headset")
            try await waitForConfiguredDefaults("usb_headset configured", on: server) { $0.sink == "usb_headset" }
            try await client.setDefaultSource("speaker.monitor")
            try await waitForConfiguredDefaults("the monitor configured as the source", on: server) {
                $0 == ConfiguredDefaults(sink: "usb_headset", source: "speaker")
            }

            try await client.resetDefaultSink()
            try await waitForConfiguredDefaults("the sink forgotten", on: server) { $0 == ConfiguredDefaults(sink: nil, source: "speaker") }
            try await client.resetDefaultSource()
            try await waitForConfiguredDefaults("the source forgotten", on: server) { $0 == ConfiguredDefaults(sink: nil, source: nil) }
        }
    }

    @Test("on PulseAudio there is no PipeWire to ask: the read fails")
    func sandboxedPulseAudio() async throws {
        try await SandboxServer.withServer(.pulseaudio) { server in
            let error = await #expect(throws: Reader.Failure.self) {
                try await Reader(environment: server.environment).configuredDefaults()
            }
            guard case .failed(let status, _) = error else {
                Issue.record("expected pw-metadata to fail, got \(String(describing: error))")
                return
            }
            #expect(status == 255)
        }
    }
}

// MARK: - Waiting on PipeWire's metadata

/// Waits until the configured defaults of the sandboxed PipeWire `server` satisfy `condition`:
/// reads them once, then again whenever `pw-metadata --monitor` reports a change to the
/// `default` metadata. (Clearing a configured default may change nothing pipewire-pulse
/// reports, so the PulseAudio event stream cannot be what wakes the check.)
func waitForConfiguredDefaults(_ what: String, on server: SandboxServer, timeout: Duration = .seconds(15),
                       _ condition: @escaping @Sendable (ConfiguredDefaults) -> Bool) async throws {
    let reader = PipeWireConfiguredDefaults(environment: server.environment)
    let monitor = try await PipeWireMetadataMonitor(server: server)
    defer { monitor.stop() }
    let changes = monitor.changes
    let last = LastConfiguredReading()
    do {
        try await withTimeout(what, timeout) {
            if condition(try await last.note(reader.configuredDefaults())) { return }
            for await _ in changes {
                if condition(try await last.note(reader.configuredDefaults())) { return }
            }
            throw TimedOut(what: "\(what) (pw-metadata --monitor ended)")
        }
    } catch let timedOut as TimedOut {
        throw TimedOut(what: "\(timedOut.what); last read: \(await last.value.map { "\($0)" } ?? "none")")
    }
}

/// The last configured defaults read, for the timeout's message.
private actor LastConfiguredReading {
    var value: ConfiguredDefaults?
    func note(_ defaults: ConfiguredDefaults) -> ConfiguredDefaults {
        value = defaults
        return defaults
    }
}

/// A temporary directory, deleted on release.
final class ReaderScratchFolder: Sendable {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes `contents` to `name` inside and returns its path. The descriptor is
    /// close-on-exec: a process another test spawns meanwhile must not keep it open for
    /// writing, or running the file would fail with "Text file busy".
    func write(_ name: String, _ contents: String, executable: Bool = false) throws -> String {
        let file = path + "/" + name
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file]) }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
