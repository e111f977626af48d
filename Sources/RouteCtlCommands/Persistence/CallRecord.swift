import FoundationEssentials

/// What `routectl call start` changed with no daemon running, so that `routectl call end`
/// can put it back: the card profile it switched (a Bluetooth headset to HSP/HFP) and the
/// default source before. Its presence means call audio is on.
struct CallRecord: Codable, Equatable, Sendable {
    /// The device the call is on (its id).
    var device: String
    /// Its card, when a profile was switched.
    var card: String?
    /// The card's profile before the call.
    var profileBefore: String?
    /// The profile the call selected.
    var callProfile: String?
    /// The default source before the call.
    var defaultSourceBefore: String?
}

/// Where ``CallRecord``s are kept: `$XDG_RUNTIME_DIR/routekit/`, one file per sound server
/// (a call lasts no longer than the session), written atomically, user-only.
struct CallRecordStore: Sendable {
    /// The record's file.
    let path: String

    /// The store for the server named `server` (its address, or `default`); nil without
    /// `XDG_RUNTIME_DIR`.
    static func standard(server: String, environment: [String: String]) -> CallRecordStore? {
        guard let runtime = XDGDirectory.runtime.path(environment: environment) else { return nil }
        return CallRecordStore(path: runtime + "/routekit/call-\(fingerprint(server)).json")
    }

    /// The record, nil when call audio is off (or the file is unusable: it is then ignored).
    func read() -> CallRecord? {
        guard let text = try? SmallTextFile.read(atPath: path) else { return nil }
        return try? JSONDecoder().decode(CallRecord.self, from: Data(text.utf8))
    }

    /// Keeps `record`.
    func write(_ record: CallRecord) throws(AtomicFile.Failure) {
        let data = (try? JSONEncoder().encode(record)) ?? Data()
        try AtomicFile.write(Array(data), toPath: path)
    }

    /// Forgets the record: call audio is off.
    func remove() throws(AtomicFile.Failure) {
        try AtomicFile.remove(atPath: path)
    }

    /// FNV-1a of the server's address, in hex: a file name for any address.
    static func fingerprint(_ server: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in server.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
