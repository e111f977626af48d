import CSystemdBus
import Glibc

/// An interface as the `sd_bus_vtable` array sd-bus reads, with the C strings it points to.
/// sd-bus keeps pointers into both for as long as the object is registered, so the object's
/// core owns this until its registration's destroy callback has run.
///
/// `@unchecked Sendable`: built whole in `init`, never changed, only read (by sd-bus, on the
/// connection's thread) and freed in `deinit`.
final class VTable: @unchecked Sendable {
    /// The entries: start, methods, signals, properties, end.
    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private let count: Int
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ interface: BusInterface) {
        count = interface.methods.count + interface.signals.count + interface.properties.count + 2
        entries = .allocate(capacity: count)
        var index = 0
        func add(_ entry: sd_bus_vtable) {
            (entries + index).initialize(to: entry)
            index += 1
        }
        add(routekit_bus_vtable_start())
        for method in interface.methods {
            add(routekit_bus_vtable_method(
                keep(method.name), keep(method.argumentSignature.rawValue), keep(method.resultSignature.rawValue),
                keepNames(method.arguments.map(\.name) + method.results.map(\.name)), exportedMethodCalled))
        }
        for signal in interface.signals {
            add(routekit_bus_vtable_signal(keep(signal.name), keep(signal.signature.rawValue),
                                           keepNames(signal.arguments.map(\.name))))
        }
        for property in interface.properties {
            add(routekit_bus_vtable_property(keep(property.name), keep(property.signature.rawValue), exportedPropertyRead))
        }
        add(routekit_bus_vtable_end())
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        for string in strings { free(string) }
    }

    /// A C copy of `text` that lives as long as the table.
    private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(text) else { fatalError("strdup failed: out of memory") }
        strings.append(copy)
        return copy
    }

    /// Argument names as sd-bus reads them: each followed by a NUL, one after the other.
    private func keepNames(_ names: [String]) -> UnsafeMutablePointer<CChar> {
        var bytes: [CChar] = []
        for name in names { bytes += name.utf8.map { CChar(bitPattern: $0) } + [0] }
        bytes.append(0)
        guard let copy = malloc(bytes.count)?.bindMemory(to: CChar.self, capacity: bytes.count) else {
            fatalError("malloc failed: out of memory")
        }
        copy.initialize(from: bytes, count: bytes.count)
        strings.append(copy)
        return copy
    }
}
