import Foundation
import SoundServerSandbox

extension SandboxServer {
    /// Adds a microphone that records silence, a source that is no monitor: PulseAudio's
    /// `module-null-source`, or on PipeWire (whose pipewire-pulse has no such module) a null
    /// sink of the class `Audio/Source/Virtual`, which is a source. Returns the module's index.
    /// (PulseAudio 16's module-null-source takes no `source_properties`; `description` may
    /// hold spaces, not quotes.)
    public func loadStreamingMicrophone(name: String, description: String = "Microphone") async throws -> UInt32 {
        switch kind {
        case .pulseaudio:
            let output = try await pactl("load-module", "module-null-source", "source_name=\(name)",
                                         "description=\"\(description)\"")
            guard let index = UInt32(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw SoftphoneError(message: "pactl load-module module-null-source printed \"\(output)\"")
            }
            return index
        case .pipewire:
            return try await loadNullSink(name: name, properties: ["media.class": "Audio/Source/Virtual", "device.description": description])
        }
    }
}
