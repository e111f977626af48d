import PulseAudio

/// The caches behind a ``DeviceList``: the server's objects by index, and the devices built
/// from them, grouped so that one object's change rebuilds one group.
struct DeviceListState: Sendable {
    /// What a group of devices is built from: one card with its sinks and sources, or one
    /// card-less sink or source (with its partner of the same hardware, if any).
    enum GroupKey: Hashable, Sendable {
        case card(UInt32)
        case hardware(String)
        case sink(UInt32)
        case source(UInt32)
    }

    private(set) var sinks: [UInt32: SinkInfo] = [:]
    private(set) var sources: [UInt32: SourceInfo] = [:]
    private(set) var cards: [UInt32: CardInfo] = [:]
    /// Which sinks and sources each group is built from, so that a rebuild never scans.
    private var members: [GroupKey: Members] = [:]
    private var sinkGroups: [UInt32: GroupKey] = [:]
    private var sourceGroups: [UInt32: GroupKey] = [:]
    /// Each group's devices, with the sequence number that orders groups by first appearance.
    private var groups: [GroupKey: (order: Int, devices: [AudioDevice])] = [:]
    private var nextOrder = 0
    private(set) var defaultSinkName: String?
    private(set) var defaultSourceName: String?

    private struct Members: Sendable {
        var sinks: Set<UInt32> = []
        var sources: Set<UInt32> = []
        var isEmpty: Bool { sinks.isEmpty && sources.isEmpty }
    }

    init() {}

    init(cards: [CardInfo], sinks: [SinkInfo], sources: [SourceInfo], info: ServerInfo) {
        for card in cards { self.cards[card.index] = card }
        defaultSinkName = info.defaultSinkName
        defaultSourceName = info.defaultSourceName
        for sink in sinks.sorted(by: { $0.index < $1.index }) { _ = upsert(sink) }
        for source in sources.sorted(by: { $0.index < $1.index }) { _ = upsert(source) }
        for card in cards.sorted(by: { $0.index < $1.index }) { _ = rebuild([.card(card.index)]) }
    }

    /// Every device, in the order their groups appeared.
    func devices() -> [AudioDevice] {
        let all = groups.values.sorted { $0.order < $1.order }.flatMap(\.devices)
        return DeviceModel.markActive(DeviceModel.pairBuiltInMicrophones(all),
                                      defaultSink: sinks.values.first { $0.name == defaultSinkName },
                                      defaultSource: sources.values.first { $0.name == defaultSourceName })
    }

    // MARK: Updates, each returning what changed

    mutating func upsert(_ sink: SinkInfo) -> DeviceList.Change {
        sinks[sink.index] = sink
        let key = groupKey(of: sink)
        let old = move(sink: sink.index, to: key)
        return rebuild([old, key])
    }

    mutating func upsert(_ source: SourceInfo) -> DeviceList.Change {
        let wasMonitor = sources[source.index]?.isMonitor ?? true
        sources[source.index] = source
        let key = groupKey(of: source)
        let old = move(source: source.index, to: key)
        // A sink's monitor is in no device (DeviceModel leaves monitors out): its group's
        // devices stay as they are, and rebuilding them (classifying again) would only delay
        // the removal or arrival of the sink that comes with it.
        if wasMonitor, source.isMonitor, old == key || old == nil { return DeviceList.Change() }
        return rebuild([old, key])
    }

    mutating func upsert(_ card: CardInfo) -> DeviceList.Change {
        let hadCard = cards[card.index] != nil
        cards[card.index] = card
        guard !hadCard else { return rebuild([.card(card.index)]) }
        // Sinks and sources that arrived before their card move into its group.
        return regroup(sinks: sinks.values.filter { $0.card == card.index }.map(\.index),
                       sources: sources.values.filter { $0.card == card.index }.map(\.index),
                       also: .card(card.index))
    }

    mutating func removeSink(_ index: UInt32) -> DeviceList.Change {
        guard sinks.removeValue(forKey: index) != nil else { return DeviceList.Change() }
        return rebuild([move(sink: index, to: nil)])
    }

    mutating func removeSource(_ index: UInt32) -> DeviceList.Change {
        guard let removed = sources.removeValue(forKey: index) else { return DeviceList.Change() }
        let old = move(source: index, to: nil)
        // A monitor is in no device: see upsert(_:).
        if removed.isMonitor {
            if let old, members[old]?.isEmpty ?? false, groups[old] == nil { members.removeValue(forKey: old) }
            return DeviceList.Change()
        }
        return rebuild([old])
    }

    mutating func removeCard(_ index: UInt32) -> DeviceList.Change {
        guard cards.removeValue(forKey: index) != nil else { return DeviceList.Change() }
        let orphans = members[.card(index)] ?? Members()
        return regroup(sinks: Array(orphans.sinks), sources: Array(orphans.sources), also: .card(index))
    }

    /// Moves some sinks and sources to the groups they belong in now, and rebuilds every
    /// group involved.
    private mutating func regroup(sinks sinkIndexes: [UInt32], sources sourceIndexes: [UInt32],
                                  also key: GroupKey) -> DeviceList.Change {
        var keys: [GroupKey?] = [key]
        for index in sinkIndexes {
            guard let sink = sinks[index] else { continue }
            let newKey = groupKey(of: sink)
            keys += [move(sink: index, to: newKey), newKey]
        }
        for index in sourceIndexes {
            guard let source = sources[index] else { continue }
            let newKey = groupKey(of: source)
            keys += [move(source: index, to: newKey), newKey]
        }
        return rebuild(keys)
    }

    /// Records that a sink now belongs to `key` (nil: to none); returns its former group.
    private mutating func move(sink index: UInt32, to key: GroupKey?) -> GroupKey? {
        let old = sinkGroups[index]
        if let old { members[old]?.sinks.remove(index) }
        sinkGroups[index] = key
        if let key { members[key, default: Members()].sinks.insert(index) }
        return old
    }

    /// Records that a source now belongs to `key` (nil: to none); returns its former group.
    private mutating func move(source index: UInt32, to key: GroupKey?) -> GroupKey? {
        let old = sourceGroups[index]
        if let old { members[old]?.sources.remove(index) }
        sourceGroups[index] = key
        if let key { members[key, default: Members()].sources.insert(index) }
        return old
    }

    mutating func setDefaults(sink: String?, source: String?) -> DeviceList.Change {
        guard sink != defaultSinkName || source != defaultSourceName else { return DeviceList.Change() }
        defaultSinkName = sink
        defaultSourceName = source
        return DeviceList.Change(defaultsChanged: true)
    }

    // MARK: Groups

    private func groupKey(of sink: SinkInfo) -> GroupKey {
        if let card = sink.card, cards[card] != nil { return .card(card) }
        return cardlessKey(of: sink)
    }

    private func groupKey(of source: SourceInfo) -> GroupKey {
        if let card = source.card, cards[card] != nil { return .card(card) }
        return cardlessKey(of: source)
    }

    private func cardlessKey(of sink: SinkInfo) -> GroupKey {
        DeviceModel.hardwareIdentity(sink.properties).map(GroupKey.hardware) ?? .sink(sink.index)
    }

    private func cardlessKey(of source: SourceInfo) -> GroupKey {
        DeviceModel.hardwareIdentity(source.properties).map(GroupKey.hardware) ?? .source(source.index)
    }


    private mutating func rebuild(_ keys: [GroupKey?]) -> DeviceList.Change {
        var change = DeviceList.Change()
        for key in Set(keys.compactMap { $0 }) {
            change.merge(rebuild(key))
        }
        return change
    }

    /// Rebuilds one group from its own members: never a scan of everything.
    private mutating func rebuild(_ key: GroupKey) -> DeviceList.Change {
        let old = groups[key]?.devices ?? []
        let group = members[key] ?? Members()
        if group.isEmpty { members.removeValue(forKey: key) }
        let groupSinks = group.sinks.compactMap { sinks[$0] }.sorted { $0.index < $1.index }
        let groupSources = group.sources.compactMap { sources[$0] }.sorted { $0.index < $1.index }
        let new: [AudioDevice]
        switch key {
        case .card(let index):
            new = cards[index].map { DeviceModel.devices(card: $0, sinks: groupSinks, sources: groupSources) } ?? []
        case .hardware, .sink, .source:
            new = DeviceModel.cardless(sinks: groupSinks, sources: groupSources)
        }
        if new.isEmpty {
            groups.removeValue(forKey: key)
        } else {
            let order = groups[key]?.order ?? nextOrder
            if groups[key] == nil { nextOrder += 1 }
            groups[key] = (order, new)
        }
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return DeviceList.Change(
            added: Set(newByID.keys).subtracting(oldByID.keys),
            removed: Set(oldByID.keys).subtracting(newByID.keys),
            changed: Set(newByID.compactMap { id, device in oldByID[id].flatMap { $0 == device ? nil : id } }))
    }
}
