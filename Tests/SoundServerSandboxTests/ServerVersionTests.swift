@testable import SoundServerSandbox
import Testing

/// The version a server program reports of itself (`--version`), without a server.
@Suite struct ServerVersionTests {
    @Test func pipeWireSaysWhatItIsLinkedWith() {
        let output = "pipewire\nCompiled with libpipewire 1.4.1\nLinked with libpipewire 1.4.2\n"
        #expect(SandboxServer.version(fromVersionOutput: output) == "1.4.2")
    }

    @Test func pulseAudioSaysItOnItsFirstLine() {
        #expect(SandboxServer.version(fromVersionOutput: "pulseaudio 16.1\n") == "16.1")
    }

    @Test func noVersionIsNil() {
        #expect(SandboxServer.version(fromVersionOutput: "") == nil)
        #expect(SandboxServer.version(fromVersionOutput: "usage: pipewire [options]\n") == nil)
    }
}
