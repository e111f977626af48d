import DumpReader
import PulseAudio
import RouteKit

/// What a corpus expectation names in a parsed dump.
enum ExpectationTarget {
    case cardPort(CardInfo, CardInfo.Port)
    case sinkPort(SinkInfo, DevicePort)
    case sourcePort(SourceInfo, DevicePort)
    case sink(SinkInfo)
    case source(SourceInfo)
    case card(CardInfo)
    /// A PipeWire node that is neither sink nor source, as its property list.
    case node([String: String])
    /// The dump's value for a metadata key.
    case metadata(String?)

    /// A port's availability; nil for other targets.
    var portAvailability: PortAvailability? {
        switch self {
        case .cardPort(_, let port): port.availability
        case .sinkPort(_, let port), .sourcePort(_, let port): port.availability
        default: nil
        }
    }
}

extension Expectation.Availability {
    /// The parsed availability this label stands for (`n/a`: nothing printed, read as unknown).
    var portAvailability: PortAvailability {
        switch self {
        case .yes: .available
        case .no: .unavailable
        case .unknown, .notPrinted: .unknown
        }
    }
}

extension ServerDump {
    /// Everything in the dump that `expectation` names: every listing of it when the dump
    /// holds several captures. A port whose owner the paste does not name (file 20 lost its
    /// card's heading and name) is looked for on cards without a name.
    func targets(of expectation: Expectation) -> [ExpectationTarget] {
        switch expectation.kind {
        case .port:
            guard let owner = expectation.owner else { return [] }
            let found = ports(named: expectation.name, ownedBy: owner)
            if !found.isEmpty || cards.contains(where: { $0.name == owner }) {
                return found
            }
            return ports(named: expectation.name, ownedBy: "")
        case .sink:
            if let id = expectation.id { return entities(withID: id) }
            return sinks.filter { $0.name == expectation.name }.map(ExpectationTarget.sink)
        case .source:
            if let id = expectation.id { return entities(withID: id) }
            return sources.filter { $0.name == expectation.name }.map(ExpectationTarget.source)
        case .card:
            return cards.filter { $0.name == expectation.name }.map(ExpectationTarget.card)
        case .node:
            if let id = expectation.id { return entities(withID: id) }
            return otherNodes.filter { $0["node.name"] == expectation.name }.map(ExpectationTarget.node)
                + sinks.filter { $0.name == expectation.name }.map(ExpectationTarget.sink)
                + sources.filter { $0.name == expectation.name }.map(ExpectationTarget.source)
        case .metadata:
            switch expectation.name {
            case "default.audio.sink": return [.metadata(defaultSinkName)]
            case "default.audio.source": return [.metadata(defaultSourceName)]
            case "default.configured.audio.sink": return [.metadata(configuredDefaultSinkName)]
            default: return []
            }
        }
    }

    /// Whether the dump shows what `expectation` says: the entity exists, a port's availability
    /// is one the label accepts in every listing, a metadata key has the labelled value.
    func satisfies(_ expectation: Expectation) -> Bool {
        let found = targets(of: expectation)
        guard !found.isEmpty else { return false }
        if expectation.kind == .metadata {
            return found.allSatisfy { target in
                if case .metadata(let value) = target { return value == expectation.value }
                return false
            }
        }
        guard !expectation.availabilities.isEmpty else { return true }
        let accepted = Set(expectation.availabilities.map(\.portAvailability))
        return found.allSatisfy { $0.portAvailability.map(accepted.contains) ?? false }
    }

    private func ports(named name: String, ownedBy owner: String) -> [ExpectationTarget] {
        var found: [ExpectationTarget] = []
        for card in cards where card.name == owner {
            found += card.ports.filter { $0.name == name }.map { .cardPort(card, $0) }
        }
        for sink in sinks where sink.name == owner {
            found += sink.ports.filter { $0.name == name }.map { .sinkPort(sink, $0) }
        }
        for source in sources where source.name == owner {
            found += source.ports.filter { $0.name == name }.map { .sourcePort(source, $0) }
        }
        return found
    }

    /// Sinks, sources and other nodes whose index or `object.id` is `id`.
    private func entities(withID id: UInt32) -> [ExpectationTarget] {
        sinks.filter { $0.index == id }.map(ExpectationTarget.sink)
            + sources.filter { $0.index == id }.map(ExpectationTarget.source)
            + otherNodes.filter { $0["object.id"] == String(id) }.map(ExpectationTarget.node)
    }
}
