import PulseAudio
import RouteKitTesting
import Testing

/// Checks that a snapshot of `server` holds together as a real server's does; records an
/// issue for each thing that does not. Not `strict` (a server from a partial dump): a card
/// may show fewer devices than its profile counts, and a device ports its card lacks.
func expectConsistent(_ server: SimulatedServer, strict: Bool = true,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let info = try await server.serverInfo()
    let sinks = try await server.sinks()
    let sources = try await server.sources()
    let cards = try await server.cards()
    let inputs = try await server.sinkInputs()
    let outputs = try await server.sourceOutputs()
    let clients = try await server.clients()

    for (what, indexes) in [("sink", sinks.map(\.index)), ("source", sources.map(\.index)), ("card", cards.map(\.index)),
                            ("sink input", inputs.map(\.index)), ("source output", outputs.map(\.index))] {
        #expect(Set(indexes).count == indexes.count, "\(what) indexes are unique", sourceLocation: sourceLocation)
    }
    #expect(Set(sinks.map(\.name)).count == sinks.count, "sink names are unique", sourceLocation: sourceLocation)
    #expect(Set(sources.map(\.name)).count == sources.count, "source names are unique", sourceLocation: sourceLocation)
    let cardsByIndex = Dictionary(uniqueKeysWithValues: cards.map { ($0.index, $0) })

    for sink in sinks {
        expectDevice(sink.name, card: sink.card, ports: sink.ports, activePort: sink.activePortName,
                     output: true, cards: cardsByIndex, strict: strict, sourceLocation: sourceLocation)
        let monitor = sources.first { $0.name == sink.monitorSourceName }
        #expect(monitor?.monitorOfSinkName == sink.name, "sink \(sink.name) has its monitor", sourceLocation: sourceLocation)
    }
    for source in sources {
        expectDevice(source.name, card: source.card, ports: source.ports, activePort: source.activePortName,
                     output: false, cards: cardsByIndex, strict: strict, sourceLocation: sourceLocation)
        if let sink = source.monitorOfSinkName {
            #expect(sinks.contains { $0.name == sink }, "monitor \(source.name) has its sink", sourceLocation: sourceLocation)
        }
    }
    for card in cards where strict {
        let active = try #require(card.activeProfile, "card \(card.name) has an active profile", sourceLocation: sourceLocation)
        #expect(sinks.filter { $0.card == card.index }.count == Int(active.sinkCount),
                "card \(card.name) has the sinks of \(active.name)", sourceLocation: sourceLocation)
        #expect(sources.filter { $0.card == card.index && $0.monitorOfSinkName == nil }.count == Int(active.sourceCount),
                "card \(card.name) has the sources of \(active.name)", sourceLocation: sourceLocation)
    }
    #expect((info.defaultSinkName == nil) == sinks.isEmpty, "a default sink exists when sinks do", sourceLocation: sourceLocation)
    #expect((info.defaultSourceName == nil) == sources.isEmpty, "a default source exists when sources do",
            sourceLocation: sourceLocation)
    if let name = info.defaultSinkName {
        #expect(sinks.contains { $0.name == name }, "the default sink exists", sourceLocation: sourceLocation)
    }
    if let name = info.defaultSourceName {
        #expect(sources.contains { $0.name == name }, "the default source exists", sourceLocation: sourceLocation)
    }
    let clientIndexes = Set(clients.map(\.index))
    for input in inputs {
        #expect(sinks.contains { $0.index == input.sink }, "sink input #\(input.index) is on a sink",
                sourceLocation: sourceLocation)
        #expect(input.client.map(clientIndexes.contains) ?? true, "sink input #\(input.index) has its client",
                sourceLocation: sourceLocation)
    }
    for output in outputs {
        #expect(sources.contains { $0.index == output.source }, "source output #\(output.index) is on a source",
                sourceLocation: sourceLocation)
    }
    for sink in sinks {
        let running = inputs.contains { $0.sink == sink.index && !$0.isCorked }
        #expect(sink.state == (running ? .running : .idle), "sink \(sink.name) is \(running ? "running" : "idle")",
                sourceLocation: sourceLocation)
    }
}

private func expectDevice(_ name: String, card: UInt32?, ports: [DevicePort], activePort: String?, output: Bool,
                          cards: [UInt32: CardInfo], strict: Bool, sourceLocation: SourceLocation) {
    if let activePort {
        #expect(ports.contains { $0.name == activePort }, "\(name)'s active port exists", sourceLocation: sourceLocation)
    } else {
        #expect(ports.isEmpty, "\(name) has an active port among its ports", sourceLocation: sourceLocation)
    }
    guard let index = card else { return }
    guard let card = cards[index] else {
        Issue.record("\(name) points at card #\(index), which does not exist", sourceLocation: sourceLocation)
        return
    }
    for port in ports {
        let cardPort = card.ports.first { $0.name == port.name }
        if !strict, cardPort == nil { continue }
        #expect(cardPort?.availability == port.availability, "\(name)'s port \(port.name) matches the card's",
                sourceLocation: sourceLocation)
        #expect(cardPort?.direction == (output ? .output : .input), "\(name)'s port \(port.name) has its direction",
                sourceLocation: sourceLocation)
        if let active = card.activeProfileName {
            #expect(cardPort?.profileNames.contains(active) == true, "\(name)'s port \(port.name) is in the active profile",
                    sourceLocation: sourceLocation)
        }
    }
}
