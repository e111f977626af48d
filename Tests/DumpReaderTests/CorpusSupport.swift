import DumpReader
import Foundation
import TestSupport

/// One file of the repository's corpus of real dumps (`Tests/Corpus/NN_*.txt`): its `# `
/// header lines and the dump after them.
struct CorpusFile: Sendable, CustomStringConvertible {
    /// The file name, for example `01_laptop-...-headphones_pw.txt`.
    var name: String
    /// The whole file, headers included (``ServerDump/parse(_:)`` skips `# ` lines, so line
    /// numbers in errors are the file's).
    var text: String
    /// The header values by key (`source`, `server`, `expected`, `format`, `note`).
    var headers: [String: String]
    /// The dump: every line from the first that does not start with `# `.
    var dump: String

    /// The `# expected:` entries.
    var expectations: [Expectation] { Expectation.parseList(headers["expected"] ?? "") }

    var description: String { name }

    /// The corpus directory, `Tests/Corpus`.
    static var directory: URL { Corpus.directory }

    /// The names of the corpus's dump files (`NN_*.txt`), sorted.
    static func names() -> [String] { Corpus.names() }

    /// Loads the corpus file `name`.
    static func load(_ name: String) throws -> CorpusFile {
        try split(name: name, text: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
    }

    /// Splits a corpus file's text into headers and dump.
    static func split(name: String, text: String) -> CorpusFile {
        var headers: [String: String] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.first, line.hasPrefix("# ") {
            lines = lines.dropFirst()
            let body = line.dropFirst(2)
            if let colon = body.firstIndex(of: ":") {
                let key = String(body[..<colon]).trimmingCharacters(in: .whitespaces)
                headers[key] = String(body[body.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
        }
        return CorpusFile(name: name, text: text, headers: headers, dump: lines.joined(separator: "\n"))
    }
}

/// One `# expected:` entry of a corpus file, such as `port alsa_card.x:analog-output-speaker ->
/// speakerphone [avail=unknown]` or `sink bluez_output.F4:29:67:BA:9A:5E -> bluetooth`.
struct Expectation: Sendable, Hashable, CustomStringConvertible {
    /// What the entry is about.
    enum Kind: String, Sendable, CaseIterable {
        case port, sink, source, card, node, metadata
    }

    /// A port's expected availability, as labelled.
    enum Availability: String, Sendable {
        case yes, no, unknown
        /// Nothing was printed for the port (old PulseAudio, some Bluetooth ports).
        case notPrinted = "n/a"
    }

    /// What the entry is about.
    var kind: Kind
    /// For a port: the card, sink or source that has it.
    var owner: String?
    /// The port name, the sink/source/card/node name, or for metadata the key. For an entry
    /// that names no entity (`sink (id 44, node.name cut off, ...)`) the text as written.
    var name: String
    /// For metadata: the value (`alsa_output.pci-0000_03_00.0.iec958-stereo`).
    var value: String?
    /// For entries that identify a node by id (`node id 41 (...)`, `sink (id 44, ...)`): the id.
    var id: UInt32?
    /// The expected kind, the first word after `->` (`bluetooth`, `wiredHeadset`, `speakerphone`,
    /// `earpiece`, `other`).
    var expectedKind: String
    /// Every availability the `[avail=...]` label accepts (`n/a in pactl, unknown in pacmd` gives two).
    var availabilities: [Availability]
    /// The bracketed remark before the entry (`UCM listing`), if any.
    var remark: String?
    /// What follows the kind and availability (`(AMBIGUOUS: ...)`), if anything.
    var comment: String?
    /// The entry as written.
    var raw: String

    var description: String { raw }

    /// The entries of an `expected:` header (separated by ` ; `).
    static func parseList(_ text: String) -> [Expectation] {
        text.components(separatedBy: " ; ").compactMap { parse($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// One entry, nil when it is not `<kind> <target> -> <expected kind> ...`.
    static func parse(_ entry: String) -> Expectation? {
        var rest = Substring(entry)
        var remark: String?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            remark = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        guard let space = rest.firstIndex(of: " "), let kind = Kind(rawValue: String(rest[..<space])),
              let arrow = rest.range(of: " -> ") else { return nil }
        let target = rest[rest.index(after: space)..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        var after = rest[arrow.upperBound...].drop { $0 == " " }
        let expectedKind = String(after.prefix { $0 != " " })
        after = after.dropFirst(expectedKind.count).drop { $0 == " " }
        var availabilities: [Availability] = []
        if after.hasPrefix("[avail="), let close = after.firstIndex(of: "]") {
            availabilities = parseAvailabilities(after[after.index(after.startIndex, offsetBy: 7)..<close])
            after = after[after.index(after: close)...].drop { $0 == " " }
        }
        var expectation = Expectation(kind: kind, owner: nil, name: target, value: nil, id: nil,
                                      expectedKind: expectedKind, availabilities: availabilities, remark: remark,
                                      comment: after.isEmpty ? nil : String(after), raw: entry)
        expectation.readTarget(target)
        return expectation
    }

    /// Splits the target by kind: `owner:port`, `key value` for metadata, `id N` forms.
    private mutating func readTarget(_ target: String) {
        switch kind {
        case .port:
            if let colon = target.firstIndex(of: ":") {
                owner = String(target[..<colon])
                name = String(target[target.index(after: colon)...])
            }
        case .metadata:
            let parts = target.split(separator: " ", maxSplits: 1)
            name = String(parts[0])
            value = parts.count > 1 ? String(parts[1]) : nil
        case .sink, .source, .card, .node:
            let body = target.hasPrefix("(") ? target.dropFirst() : Substring(target)
            if body.hasPrefix("id ") {
                id = UInt32(body.dropFirst(3).prefix { $0.isNumber })
            }
        }
    }

    /// `yes`, `unknown (pacmd) / n/a (pactl)`, `n/a in pactl, unknown in pacmd`...
    private static func parseAvailabilities(_ text: Substring) -> [Availability] {
        var found: [Availability] = []
        let words = text.replacingOccurrences(of: "n/a", with: "notPrinted").split(whereSeparator: { " ,/()".contains($0) })
        for word in words {
            let availability = word == "notPrinted" ? .notPrinted : Availability(rawValue: String(word))
            if let availability, !found.contains(availability) {
                found.append(availability)
            }
        }
        return found
    }
}
