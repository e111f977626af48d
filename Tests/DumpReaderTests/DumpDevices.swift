import DumpReader
import RouteKit

extension ServerDump {
    /// The devices RouteKit would see on the machine the dump came from.
    var devices: [AudioDevice] {
        DeviceModel.devices(cards: cards, sinks: sinks, sources: sources,
                            defaultSinkName: defaultSinkName, defaultSourceName: defaultSourceName)
    }
}
