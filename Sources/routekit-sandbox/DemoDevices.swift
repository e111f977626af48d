/// The virtual devices `--devices demo` adds, following the project's convention for
/// virtual devices (Docs/Testing.md): ordinary properties, no special cases.
enum DemoDevices {
    struct Device {
        var name: String
        var properties: [String: String]
    }

    static let all = [
        Device(name: "builtin_speaker", properties: [
            "device.form_factor": "internal", "device.description": "Built-in Speaker",
        ]),
        Device(name: "usb_headset", properties: [
            "device.bus": "usb", "device.form_factor": "headset", "device.description": "USB Headset",
        ]),
        Device(name: "bt_headset", properties: [
            "device.bus": "bluetooth", "device.form_factor": "headset", "device.description": "Bluetooth Headset",
        ]),
    ]
}
