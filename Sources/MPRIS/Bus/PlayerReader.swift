import DBus

/// Performs a ``PlayerRead``: the player interface's properties, `Identity` and the owner's
/// pid, asked of the owning connection at once, each within `timeout`.
struct PlayerReader: Sendable {
    let connection: BusConnection
    let timeout: Duration

    /// What the player at `read.owner` answers.
    func read(_ read: PlayerRead) async -> PlayerReadOutcome {
        async let player = answer(MPRISNames.getAll(MPRISNames.playerInterface, of: read.owner, timeout: timeout))
        async let identity = answer(MPRISNames.get(MPRISNames.rootInterface, "Identity", of: read.owner, timeout: timeout))
        async let processID = owningProcess(of: read.owner)
        let (playerAnswer, identityAnswer, process) = await (player, identity, processID)

        let properties: [String: BusValue]
        switch playerAnswer {
        case .success(let values):
            guard let dictionary = values.first?.variantDictionaryValue else {
                return .failed(.failed("GetAll answered \(values), not a{sv}"))
            }
            properties = dictionary
        case .failure(let error):
            return .failed(failure(error))
        }
        var update = PlayerUpdate(playerProperties: properties, required: true)
        // Identity is optional in MPRIS: its absence is no problem, a wrong type is.
        if case .success(let values) = identityAnswer, let value = values.first?.unwrappingVariant {
            if case .string(let text) = value {
                update.identity = text
            } else {
                update.problems.append("Identity is \(value.signature.rawValue) \(value), not a string")
            }
        }
        return .read(update, processID: process)
    }

    /// What a bus error means for a read.
    private func failure(_ error: any Error) -> PlayerReadFailure {
        guard let error = error as? BusError else { return .gone }  // cancelled: the module is ending
        if MPRISNames.goneErrorNames.contains(error.name) || connection.isDisconnected { return .gone }
        switch error.name {
        case BusError.noReplyName:
            return .timedOut(timeout)
        case "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownObject",
             BusError.unknownMethodName, BusError.invalidArgumentsName:
            return .noPlayerInterface(error.description)
        default:
            // dbus-python and others name the error after the object's own interface
            // (`….UnknownInterface`).
            return error.name.hasSuffix(".UnknownInterface") ? .noPlayerInterface(error.description) : .failed(error.description)
        }
    }

    private func answer(_ call: BusCall) async -> Result<[BusValue], any Error> {
        do {
            return .success(try await connection.call(call))
        } catch {
            return .failure(error)
        }
    }

    /// The pid the bus knows for `owner`; nil when it cannot say (another platform, a bus
    /// that refuses) or the owner has gone.
    private func owningProcess(of owner: String) async -> UInt32? {
        try? await connection.processID(ofOwnerOf: owner)
    }
}
