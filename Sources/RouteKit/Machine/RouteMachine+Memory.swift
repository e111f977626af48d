/// A one-shot run's state, handed from one run to the next (``RouteMemory``).
extension RouteMachine {
    /// What the next one-shot run needs to go on from here.
    var memory: RouteMemory {
        var memory = RouteMemory()
        memory.isCallAudioOn = calls.contains { $0.id == Self.implicitCall && $0.holdsCallMode }
        if isCallActive {
            memory.speaker = speaker
            memory.selection = selection
            memory.callDefaultSource = callDefaultSource
            memory.mediaRouteBeforeCall = mediaRouteBeforeCall
        }
        memory.isMicrophoneMuted = isMicrophoneMuted
        memory.mutedSources = isMicrophoneMuted ? mutedSources : []
        memory.callProfiles = callProfiles.mapValues { RouteMemory.ProfileSwitch(original: $0, selected: nil) }
        for card in callProfiles.keys { memory.callProfiles[card]?.selected = ledger.profiles[card]?.selected }
        return memory
    }

    /// Takes up `memory` before a run starts, as if the run before had gone on until now: the
    /// start's first decision already routes by it.
    mutating func recall(_ memory: RouteMemory) {
        calls.removeAll { $0.id == Self.implicitCall }
        if memory.isCallAudioOn { calls.append(CallSession(id: Self.implicitCall, state: .active, origin: .implicit)) }
        speaker = memory.speaker
        selection = memory.selection
        isMicrophoneMuted = memory.isMicrophoneMuted
        mutedSources = memory.mutedSources
        callProfiles = memory.callProfiles.mapValues(\.original)
        callDefaultSource = memory.callDefaultSource
        mediaRouteBeforeCall = memory.mediaRouteBeforeCall
        for (card, change) in memory.callProfiles {
            guard let selected = change.selected else { continue }
            ledger.noteProfile(card: card, original: change.original, selected: selected)
        }
    }
}
