import PulseAudio

/// The scenarios run on both servers: everything null sinks and `pacat` can show.
enum Scenarios {
    /// A built-in speaker, by the project's convention.
    static let speaker = ["device.form_factor": "internal", "device.description": "Speaker"]
    /// A Bluetooth headset, by the project's convention (it outranks the speaker: bus bluetooth).
    static let headset = ["device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Headset"]

    static func isNewStream(_ event: SubscriptionEvent) -> Bool { event.facility == .sinkInput && event.kind == .new }
    static func isClientGone(_ event: SubscriptionEvent) -> Bool { event.facility == .client && event.kind == .remove }
    /// PulseAudio acknowledges `unload-module` before it unloads (a deferred event does), so a
    /// step that unplugs waits for the module's removal before its fence.
    static func isModuleGone(_ event: SubscriptionEvent) -> Bool { event.facility == .module && event.kind == .remove }

    /// Devices appear and disappear; the default follows priority.
    static func plugAndUnplug(_ server: any ScenarioServer) async throws -> [StepRecord] {
        var recorder = try await ScenarioRecorder(server)
        try await recorder.step("plug the speaker (the first sink)") { try await server.plug("speaker", speaker) }
        try await recorder.step("plug the headset (it outranks the speaker)") { try await server.plug("headset", headset) }
        try await recorder.step("plug a plain null sink (it does not)") { try await server.plug("plain", [:]) }
        try await recorder.step("unplug the plain sink", waitingFor: isModuleGone) { try await server.unplug("plain") }
        try await recorder.step("unplug the default headset", waitingFor: isModuleGone) {
            try await server.unplug("headset")
        }
        try await recorder.step("unplug the last sink", waitingFor: isModuleGone) { try await server.unplug("speaker") }
        return recorder.records
    }

    /// A user's default, kept while its device is away; mute changes.
    static func defaultsAndMute(_ server: any ScenarioServer) async throws -> [StepRecord] {
        var recorder = try await ScenarioRecorder(server)
        try await recorder.step("plug the speaker") { try await server.plug("speaker", speaker) }
        try await recorder.step("plug the headset") { try await server.plug("headset", headset) }
        try await recorder.step("set the default to the speaker") { try await server.setDefaultSink("speaker") }
        try await recorder.step("set the same default again") { try await server.setDefaultSink("speaker") }
        try await recorder.step("mute the speaker") { try await server.setSinkMute("speaker", true) }
        try await recorder.step("mute it again") { try await server.setSinkMute("speaker", true) }
        try await recorder.step("unmute it") { try await server.setSinkMute("speaker", false) }
        try await recorder.step("set the default to the headset") { try await server.setDefaultSink("headset") }
        try await recorder.step("unplug the configured default", waitingFor: isModuleGone) {
            try await server.unplug("headset")
        }
        try await recorder.step("plug it back: it is the default again") { try await server.plug("headset", headset) }
        return recorder.records
    }

    /// Streams on devices that go away, come back, and are moved.
    static func streams(_ server: any ScenarioServer) async throws -> [StepRecord] {
        var recorder = try await ScenarioRecorder(server)
        try await recorder.step("plug the speaker") { try await server.plug("speaker", speaker) }
        try await recorder.step("plug the headset") { try await server.plug("headset", headset) }
        var music = 0
        try await recorder.step("a stream starts on the headset", waitingFor: isNewStream) {
            music = try await server.startStream(on: "headset")
        }
        try await recorder.step("unplug the headset: the stream goes to the speaker", waitingFor: isModuleGone) {
            try await server.unplug("headset")
        }
        try await recorder.step("plug it back: the stream follows the default") { try await server.plug("headset", headset) }
        try await recorder.step("move the stream to the speaker (it now prefers it)") {
            try await server.moveStream(music, to: "speaker")
        }
        try await recorder.step("unplug the headset: the stream stays", waitingFor: isModuleGone) {
            try await server.unplug("headset")
        }
        try await recorder.step("plug the headset: the stream still stays") { try await server.plug("headset", headset) }
        try await recorder.step("move the stream to the default headset (no preference)") {
            try await server.moveStream(music, to: "headset")
        }
        var second = 0
        try await recorder.step("a second stream starts on the speaker", waitingFor: isNewStream) {
            second = try await server.startStream(on: "speaker")
        }
        try await recorder.step("set the default to the speaker: the first stream follows") {
            try await server.setDefaultSink("speaker")
        }
        try await recorder.step("unplug the speaker with both streams", waitingFor: isModuleGone) {
            try await server.unplug("speaker")
        }
        try await recorder.step("the second stream ends", waitingFor: isClientGone) { try await server.stopStream(second) }
        try await recorder.step("unplug the last sink: the stream is killed, its client leaves", waitingFor: isClientGone) {
            try await server.unplug("headset")
        }
        return recorder.records
    }
}
