import SoundServerSandbox

/// A virtual device with its microphone (Docs/VirtualDevices.md): a null sink and a source
/// that RouteKit pairs with it, plugged and pulled together.
public struct VirtualDevice: Sendable {
    /// The sink's name: the device's id.
    public let name: String
    /// The microphone's source name, nil for a device without one.
    public let microphone: String?
    /// The modules to unload to pull it out, microphone first.
    public let modules: [UInt32]
}

extension SandboxServer {
    /// Plugs in a device: a null sink `name` with `properties`, and (unless `microphone` is
    /// false) its microphone `<name>_mic` with the same properties, paired through a shared
    /// `device.name`.
    public func plugDevice(_ name: String, properties: [String: String], microphone: Bool = true) async throws -> VirtualDevice {
        var properties = properties
        properties["device.name"] = properties["device.name"] ?? name
        let sink = try await loadNullSink(name: name, properties: properties)
        guard microphone else { return VirtualDevice(name: name, microphone: nil, modules: [sink]) }
        var input = properties
        if let description = properties["device.description"] { input["device.description"] = description + " Microphone" }
        let source = try await loadMicrophone(name: name + "_mic", properties: input)
        return VirtualDevice(name: name, microphone: name + "_mic", modules: [source, sink])
    }

    /// Pulls `device` out.
    public func unplug(_ device: VirtualDevice) async throws {
        for module in device.modules { try await unloadModule(module) }
    }
}
