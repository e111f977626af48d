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
        let cards = dump.cards.filter { $0.index != ServerDump.unknownIndex }
        guard !cards.isEmpty else { return }
        for position in dump.sinks.indices where dump.sinks[position].card == nil {
            dump.sinks[position].card = card(named: dump.sinks[position].name, dump.sinks[position].properties, among: cards)
        }
        for position in dump.sources.indices where dump.sources[position].card == nil && !dump.sources[position].isMonitor {
            dump.sources[position].card = card(named: dump.sources[position].name, dump.sources[position].properties,
                                               among: cards)
        }
    }

    /// The index of the one card among `cards` that a sink or source with `name` and
    /// `properties` belongs to, nil when no way names exactly one.
    static func card(named name: String, _ properties: [String: String], among cards: [CardInfo]) -> UInt32? {
        let ways: [(CardInfo) -> Bool] = [
            { card in properties["device.name"] == card.name },
            { card in same(properties["device.id"], card.properties["object.id"]) },
            { card in same(alsaCard(properties), alsaCard(card.properties)) },
            { card in same(properties["sysfs.path"], card.properties["sysfs.path"]) },
            { card in same(properties["api.bluez5.address"], card.properties["api.bluez5.address"]) },
            { card in nameCarriesStem(name, of: card.name) },
        ]
        for way in ways {
            let found = Set(cards.filter(way).map(\.index))
            if found.count == 1 { return found.first }
            if found.count > 1 { return nil }
        }
        return nil
    }

    /// Whether both are there and equal.
    private static func same(_ one: String?, _ other: String?) -> Bool {
        guard let one, !one.isEmpty else { return false }
        return one == other
    }

    /// The ALSA card number the properties give.
    private static func alsaCard(_ properties: [String: String]) -> String? {
        properties["alsa.card"] ?? properties["api.alsa.card"]
    }

    /// Whether `name` is `<prefix>.<stem>.<profile>` for the card `<prefix>.<stem>`.
    static func nameCarriesStem(_ name: String, of cardName: String) -> Bool {
        guard let cardDot = cardName.firstIndex(of: "."), let nameDot = name.firstIndex(of: ".") else { return false }
        let stem = cardName[cardName.index(after: cardDot)...]
        let rest = name[name.index(after: nameDot)...]
        return !stem.isEmpty && rest.hasPrefix(stem + ".")
    }
}
