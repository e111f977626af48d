import Foundation
import Glibc
import SoundServerSandbox
import Testing

/// `routectl daemon 2>&1 | head -1`: the daemon outlives the reader of its lines.
@Suite("routectl daemon without a reader")
struct DaemonStandardErrorTests {
    @Test("keeps routing after its standard error is closed, and restores the default on SIGTERM",
          arguments: SoundServerKind.allCases)
    func standardErrorClosed(kind: SoundServerKind) async throws {
        let routectl = try Executable.built("routectl")
        try await SandboxServer.withServer(kind) { server in
            try await DaemonTests.setUpUserDefault(on: server)

            // The test reads one line, then closes the pipe, as `head -1` does.
            let daemon = try await RunningProcess(routectl, ["daemon", "--prefer", "bluetooth", "--prefer", "speakerphone",
                                                       "--server", server.socketPath],
                                            standardErrorLineLimit: 1)
            _ = try await daemon.standardError.next("the first line") { $0.hasPrefix("daemon: running") }
            try await ServerObservation.waitForDefaultSink("speaker", on: server)

            // Every line from now on meets a closed pipe; the daemon must route on regardless.
            _ = try await server.loadNullSink(name: "bt_headset", properties: DaemonTests.headset)
            try await ServerObservation.waitForDefaultSink("bt_headset", on: server)

            daemon.send(SIGTERM)
            #expect(try await daemon.exitStatus() == 0)
            try await ServerObservation.waitForDefaultSink("virtual_out", on: server)
        }
    }
}
