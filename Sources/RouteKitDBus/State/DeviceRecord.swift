import DBus
import PulseAudio
import RouteKit

/// A device as `ListDevices` and `DevicesChanged` carry it: an `a{sv}` whose keys are
/// `id`, `kind`, `description`, `availability` (available, unavailable, unknown), `active`,
/// `bus`, `form_factor`, `output_sink`, `input_source` (empty strings where there is none).
public enum DeviceRecord {
    /// The record of one device.
    public static func record(_ device: AudioDevice) -> BusValue {
        .variantDictionary([
            ("id", .string(device.id.rawValue)),
            ("kind", .string(device.kind.rawValue)),
            ("description", .string(device.description)),
            ("availability", .string(device.availability.rawValue)),
            ("active", .boolean(device.isActive)),
            ("bus", .string(device.bus ?? "")),
            ("form_factor", .string(device.formFactor ?? "")),
            ("output_sink", .string(device.output?.deviceName ?? "")),
            ("input_source", .string(device.input?.deviceName ?? "")),
        ])
    }

    /// `aa{sv}`, in the devices' order.
    public static func list(_ devices: [AudioDevice]) -> BusValue {
        .array(element: .dictionary(key: .string, value: .variant), devices.map(record))
    }
}
