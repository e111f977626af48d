import Foundation
import Glibc
@testable import RouteKitDaemon
import RouteKit
import Testing
import TestSupport

/// The daemon's state file and the call record, without a server: atomic writes, user-only
/// permissions, and files that cannot be used reported and left out.
@Suite("State file")
struct StateFileTests {
    /// A fresh directory standing for XDG_STATE_HOME, removed after.
    func withStateHome(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routectl-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func theFileLivesUnderTheXDGStateDirectory() {
        #expect(StateFile.standard(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/me"])?.path
                == "/x/state/routekit/state.json")
        #expect(StateFile.standard(environment: ["HOME": "/home/me"])?.path == "/home/me/.local/state/routekit/state.json")
        #expect(StateFile.standard(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/me/"])?.path
                == "/home/me/.local/state/routekit/state.json", "a relative XDG path is ignored, as the specification says")
        #expect(StateFile.standard(environment: [:]) == nil)
    }

    @Test func noFileIsNothingSetYet() throws {
        try withStateHome { home in
            #expect(StateFile.standard(environment: ["XDG_STATE_HOME": home])?.read() == .absent)
        }
    }

    @Test func whatIsWrittenIsReadBackWithUserOnlyPermissions() throws {
        try withStateHome { home in
            let file = try #require(StateFile.standard(environment: ["XDG_STATE_HOME": home + "/deeper"]))
            try file.write(StateFile.Contents(preferences: ["bluetooth", "alsa_card.usb/analog-output"]))
            #expect(file.read() == .read(StateFile.Contents(preferences: ["bluetooth", "alsa_card.usb/analog-output"])))
            #expect(StateFile.preferences(in: StateFile.Contents(preferences: ["bluetooth", "x"])) == [.kind(.bluetooth), .device("x")])
            #expect(mode(file.path) == 0o600)
            #expect(mode(home + "/deeper/routekit") == 0o700)
            #expect(mode(home + "/deeper") == 0o700, "missing parents are created private too")
            let left = try FileManager.default.contentsOfDirectory(atPath: home + "/deeper/routekit")
            #expect(left == ["state.json"], "no temporary file is left behind")

            // Cleared: the file stays, saying so.
            try file.write(StateFile.Contents(preferences: nil))
            #expect(file.read() == .read(StateFile.Contents(preferences: nil)))
        }
    }

    @Test func aWriteReplacesTheFileWholeByRenaming() throws {
        try withStateHome { home in
            let file = try #require(StateFile.standard(environment: ["XDG_STATE_HOME": home]))
            try file.write(StateFile.Contents(preferences: ["bluetooth"]))
            var before = stat()
            stat(file.path, &before)
            try file.write(StateFile.Contents(preferences: ["speakerphone"]))
            var after = stat()
            stat(file.path, &after)
            #expect(before.st_ino != after.st_ino, "a new file took the old one's name: a reader never sees half of one")
            #expect(file.read() == .read(StateFile.Contents(preferences: ["speakerphone"])))
        }
    }

    @Test func anExistingDirectoryOfOursIsMadePrivate() throws {
        try withStateHome { home in
            try FileManager.default.createDirectory(atPath: home + "/routekit", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            let file = try #require(StateFile.standard(environment: ["XDG_STATE_HOME": home]))
            try file.write(StateFile.Contents(preferences: []))
            #expect(mode(home + "/routekit") == 0o700)
        }
    }

    @Test("a file that cannot be used is reported, never fatal",
          arguments: ["{ not json", "[]", #"{"version": 2, "preferences": []}"#, #"{"version": 1, "preferences": "bluetooth"}"#,
                      #"{"version": 1, "preferences": ["bluetoth"]}"#, "\u{FF}\u{FE}"])
    func unusableFiles(text: String) throws {
        try withStateHome { home in
            let file = try #require(StateFile.standard(environment: ["XDG_STATE_HOME": home]))
            try FileManager.default.createDirectory(atPath: home + "/routekit", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
            guard case .unusable(let reason) = file.read() else {
                Issue.record("read as usable: \(file.read())")
                return
            }
            #expect(!reason.isEmpty)
            // The next write replaces it.
            try file.write(StateFile.Contents(preferences: ["earpiece"]))
            #expect(file.read() == .read(StateFile.Contents(preferences: ["earpiece"])))
        }
    }

    @Test func aDirectoryInPlaceOfTheFileIsUnusable() throws {
        try withStateHome { home in
            let file = try #require(StateFile.standard(environment: ["XDG_STATE_HOME": home]))
            try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: true)
            #expect(file.read() == .unusable("not a regular file"))
            #expect(throws: AtomicFile.Failure.self) { try file.write(StateFile.Contents(preferences: [])) }
        }
    }

    @Test func aCallRecordIsKeptPerServerAndRemoved() throws {
        try withStateHome { runtime in
            let store = try #require(CallRecordStore.standard(server: "unix:/tmp/a/native", environment: ["XDG_RUNTIME_DIR": runtime]))
            let other = try #require(CallRecordStore.standard(server: "unix:/tmp/b/native", environment: ["XDG_RUNTIME_DIR": runtime]))
            #expect(store.path != other.path)
            #expect(store.read().isEmpty)
            var memory = RouteMemory()
            memory.isCallAudioOn = true
            memory.speaker = .off
            memory.callProfiles["bluez_card.x"] = RouteMemory.ProfileSwitch(original: "a2dp_sink", selected: "headset_head_unit")
            memory.callDefaultSource = "alsa_input.mic"
            try store.write(memory)
            #expect(store.read() == memory)
            #expect(other.read().isEmpty)
            #expect(mode(store.path) == 0o600)
            try store.remove()
            #expect(store.read().isEmpty)
            try store.remove()
            #expect(CallRecordStore.standard(server: "x", environment: ["HOME": "/home/me"]) == nil, "no runtime directory, no record")
        }
    }
}
