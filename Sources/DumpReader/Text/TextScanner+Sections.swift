/// A section of a block being read: the lines under `Properties:`, `Ports:`, `Profiles:`...
struct OpenSection: Sendable {
    /// What the section holds.
    enum Kind: Sendable {
        case properties, ports, profiles
        /// Read but not kept: `Formats:`, a pacmd card's `sinks:` and `sources:`, unknown sections.
        case ignored
        /// A label the vocabulary does not know: the first line under it decides.
        case undecided

        /// The kind of section a header label opens, nil when the label is a scalar field
        /// that happens to be empty (`Description:` with nothing after it).
        init?(_ concept: FieldConcept?) {
            switch concept {
            case .properties?: self = .properties
            case .ports?: self = .ports
            case .profiles?: self = .profiles
            case .formats?, .sinks?, .sources?: self = .ignored
            case nil: self = .undecided
            default: return nil
            }
        }
    }

    /// What it holds.
    var kind: Kind
    /// The indentation of its header line.
    var headerIndent: Int
    /// Whether its lines are indented under the header; nil until the first line is seen.
    var indented: Bool?
    /// The indentation of its first line, where entries are in an indented section.
    var entryIndent = 0
}

extension TextScanner {
    /// Takes `line` into the open section when it belongs there; whether it did.
    mutating func takeIntoSection(_ line: DumpLine, shape: LineShape) -> Bool {
        guard var open = section else { return false }
        if open.indented == nil {
            open.indented = line.indent > open.headerIndent
            open.entryIndent = line.indent
            if open.kind == .undecided {
                guard let kind = decideKind(line, shape: shape, indented: open.indented == true) else { return false }
                open.kind = kind
            }
            section = open
        }
        let belongs = open.indented == true ? line.indent > open.headerIndent : isFlatMember(line, shape: shape, of: open.kind)
        guard belongs else { return false }
        takeSectionLine(line, shape: shape, in: open)
        return true
    }

    /// The kind of an unlabelled section from its first line: properties, profiles or ports by
    /// the shape of their lines; nil when a flat section's first line does not look like one.
    private func decideKind(_ line: DumpLine, shape: LineShape, indented: Bool) -> OpenSection.Kind? {
        switch shape {
        case .property:
            return .properties
        case .field where EntryLine.hasAttributes(line.text):
            let entry = EntryLine.parse(line.text, line: line.number)
            return EntryAttributes.looksLikeProfile(entry.attributes ?? "") ? .profiles : .ports
        default:
            return indented ? .ignored : nil
        }
    }

    /// Whether a line of a paste without indentation belongs to a section of `kind`.
    private func isFlatMember(_ line: DumpLine, shape: LineShape, of kind: OpenSection.Kind) -> Bool {
        switch kind {
        case .properties:
            if case .property = shape { return true }
            return false
        case .profiles:
            return isEntryLine(line, shape: shape)
        case .ports:
            return isEntryLine(line, shape: shape) || isPortSubline(shape)
        case .ignored:
            switch shape {
            case .other: return true
            case .field(let label, _), .sectionHeader(let label): return PactlVocabulary.field(label) == nil
            default: return false
            }
        case .undecided:
            return false
        }
    }

    /// A port or profile line: a field-shaped line with an attribute group, or a hand-written
    /// `port (attributes) — Part of profile: x` line.
    private func isEntryLine(_ line: DumpLine, shape: LineShape) -> Bool {
        guard case .field(let label, _) = shape else { return false }
        return PactlVocabulary.field(label) == nil
            && (EntryLine.hasAttributes(line.text) || line.text.contains(" — "))
    }

    /// A line that belongs to the last port: its properties header, a property, its profiles.
    private func isPortSubline(_ shape: LineShape) -> Bool {
        guard block?.ports.isEmpty == false else { return false }
        switch shape {
        case .property: return true
        case .sectionHeader(let label): return PactlVocabulary.field(label) == .properties
        case .field(let label, let value): return isProfileList(label: label, value: value)
        default: return false
        }
    }

    /// Whether `label: value` lists the profiles a card port is part of.
    private func isProfileList(label: String, value: String) -> Bool {
        if PactlVocabulary.field(label) == .partOfProfiles {
            return true
        }
        let known = Set(block?.profiles.map(\.name) ?? [])
        let listed = DumpValues.profileList(value)
        return !known.isEmpty && !listed.isEmpty && listed.allSatisfy(known.contains)
    }

    /// Stores a line that belongs to `open`.
    private mutating func takeSectionLine(_ line: DumpLine, shape: LineShape, in open: OpenSection) {
        switch open.kind {
        case .properties:
            if case .property(let key, let value) = shape {
                block?.properties[key] = value
            }
        case .profiles:
            if open.indented == true, line.indent > open.entryIndent {
                return
            }
            block?.profiles.append(EntryLine.parse(line.text, line: line.number))
        case .ports:
            let isEntry = open.indented == true ? line.indent <= open.entryIndent : !isPortSubline(shape)
            if isEntry {
                block?.ports.append(EntryLine.parse(line.text, line: line.number))
                return
            }
            guard let last = block?.ports.indices.last else { return }
            switch shape {
            case .property(let key, let value):
                block?.ports[last].properties[key] = value
            case .field(let label, let value) where isProfileList(label: label, value: value):
                block?.ports[last].profileNames = DumpValues.profileList(value)
            default:
                break
            }
        case .ignored, .undecided:
            break
        }
    }
}
