import PulseAudio

/// Gives a sink or source pasted without its `Card:` line the card it belongs to, when the
/// paste shows that card and the sink names it another way. Without this, such a sink is
/// listed as a device of its own beside its card's ports: the same speaker twice.
///
/// The ways, in order of trust (the first that names exactly one card decides):
/// 1. `device.name` is the card's name (PipeWire, PulseAudio's ALSA sinks);
/// 2. `device.id` is the card's `object.id` (PipeWire);
/// 3. the same ALSA card number (`alsa.card`, `api.alsa.card`);
/// 4. the same `sysfs.path`;
/// 5. the same Bluetooth address (`api.bluez5.address`);
/// 6. the sink's name is the card's with the card's prefix swapped and a profile after it
///    (`alsa_card.pci-0000_00_1f.3` → `alsa_output.pci-0000_00_1f.3.analog-stereo`).
enum CardAttribution {
    /// `dump` with each card-less sink and source given the card it names, when it names one.
    static func attribute(_ dump: inout ServerDump) {
        let index = CardIndex(dump.cards.filter { $0.index != ServerDump.unknownIndex })
        guard !index.isEmpty else { return }
        for position in dump.sinks.indices where dump.sinks[position].card == nil {
            dump.sinks[position].card = index.card(named: dump.sinks[position].name, dump.sinks[position].properties)
        }
        for position in dump.sources.indices where dump.sources[position].card == nil && !dump.sources[position].isMonitor {
            dump.sources[position].card = index.card(named: dump.sources[position].name, dump.sources[position].properties)
        }
    }

    /// The cards by each way a sink can name them, built in one pass so that attributing
    /// every sink costs the same however many cards the dump holds.
    struct CardIndex {
        /// For each way but the name: the property of the sink, the card's property it must
        /// equal, and the cards by that value.
        private var byProperty: [(sinkKey: String, cards: [String: Set<UInt32>])] = []
        /// The cards by their name without its prefix (`pci-0000_00_1f.3` of `alsa_card.pci-0000_00_1f.3`).
        private var byStem: [Substring: Set<UInt32>] = [:]

        /// Whether there is no card.
        var isEmpty: Bool { byStem.isEmpty && byProperty.allSatisfy { $0.cards.isEmpty } }

        /// The index of `cards`.
        init(_ cards: [CardInfo]) {
            let ways: [(sinkKey: String, cardValue: (CardInfo) -> String?)] = [
                ("device.name", { $0.name }),
                ("device.id", { $0.properties["object.id"] }),
                ("alsa.card", { $0.properties["alsa.card"] ?? $0.properties["api.alsa.card"] }),
                ("sysfs.path", { $0.properties["sysfs.path"] }),
                ("api.bluez5.address", { $0.properties["api.bluez5.address"] }),
            ]
            for way in ways {
                var found: [String: Set<UInt32>] = [:]
                for card in cards {
                    if let value = way.cardValue(card), !value.isEmpty { found[value, default: []].insert(card.index) }
                }
                byProperty.append((way.sinkKey, found))
            }
            for card in cards {
                if let dot = card.name.firstIndex(of: ".") {
                    let stem = card.name[card.name.index(after: dot)...]
                    if !stem.isEmpty { byStem[stem, default: []].insert(card.index) }
                }
            }
        }

        /// The index of the one card a sink or source with `name` and `properties` names,
        /// nil when no way names exactly one (the first way that names any decides).
        func card(named name: String, _ properties: [String: String]) -> UInt32? {
            for (sinkKey, cards) in byProperty {
                let value = sinkKey == "alsa.card" ? properties["alsa.card"] ?? properties["api.alsa.card"] : properties[sinkKey]
                guard let value, let found = cards[value] else { continue }
                return found.count == 1 ? found.first : nil
            }
            return cardByStem(of: name)
        }

        /// The card whose stem the name carries: `<prefix>.<stem>.<profile>`.
        private func cardByStem(of name: String) -> UInt32? {
            guard let nameDot = name.firstIndex(of: ".") else { return nil }
            let rest = name[name.index(after: nameDot)...]
            var found: Set<UInt32> = []
            var position = rest.startIndex
            while let dot = rest[position...].firstIndex(of: ".") {
                found.formUnion(byStem[rest[..<dot]] ?? [])
                position = rest.index(after: dot)
            }
            return found.count == 1 ? found.first : nil
        }
    }
}
