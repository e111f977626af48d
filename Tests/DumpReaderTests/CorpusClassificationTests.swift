import DumpReader
import Foundation
import PulseAudio
import RouteKit
import Testing

/// The classifier on every real dump in the corpus: every expected label.
@Suite("Classifier on the corpus")
struct CorpusClassificationTests {
    @Test("every expected label", arguments: CorpusFile.names())
    func labels(file: String) throws {
        let corpus = try CorpusFile.load(file)
        let dump = try ServerDump.parse(corpus.dump)
        let expectations = corpus.expectations
        #expect(!expectations.isEmpty, "\(file) has no expected labels")
        for expectation in expectations {
            let targets = dump.targets(of: expectation)
            #expect(!targets.isEmpty, "\(file): nothing in the dump for \(expectation)")
            let listedMiss = CorpusFile.listedMisses.contains(expectation.labelText)
            for target in targets {
                let kind = DeviceClassifier.classify(target.evidence(in: dump))
                // A miss the corpus README lists, with the reason no rule decides it, is a known
                // issue: it must still miss, or the README says something that is no longer so.
                withKnownIssue("listed in the corpus README's misses", isIntermittent: false) {
                    #expect(kind.matches(corpusLabel: expectation.expectedKind),
                            "\(file): \(expectation.raw) — classified \(kind)")
                } when: {
                    listedMiss
                }
            }
        }
    }

    @Test("the corpus is there")
    func corpusPresent() {
        #expect(CorpusFile.names().count >= 25)
    }
}

extension AudioDeviceKind {
    /// The corpus calls both ``external`` and ``virtual`` "other".
    func matches(corpusLabel: String) -> Bool {
        switch self {
        case .external, .virtual: corpusLabel == "other"
        default: corpusLabel == rawValue
        }
    }
}

extension ExpectationTarget {
    /// What the classifier is given for this target.
    func evidence(in dump: ServerDump) -> ClassificationEvidence {
        switch self {
        case .cardPort(let card, let port): ClassificationEvidence(card: card, port: port)
        case .sinkPort(let sink, let port): ClassificationEvidence(sink: sink, port: port)
        case .sourcePort(let source, let port): ClassificationEvidence(source: source, port: port)
        case .sink(let sink): ClassificationEvidence(sink: sink)
        case .source(let source): ClassificationEvidence(source: source)
        case .card(let card): ClassificationEvidence(card: card)
        case .node(let properties):
            ClassificationEvidence(direction: .output, ownerName: properties["node.name"] ?? "", properties: properties)
        case .metadata(let name):
            // A default names a sink: the sink itself when the dump has it, else its name alone.
            dump.sinks.first { $0.name == name }.map { ClassificationEvidence(sink: $0) }
                ?? ClassificationEvidence(direction: .output, ownerName: name ?? "")
        }
    }
}

extension CorpusFile {
    /// The labels the corpus README lists under "Misses that remain", each as written in
    /// backticks (`sink <name>`, `port <owner>:<port>`).
    static var listedMisses: Set<String> {
        let readme = (try? String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        guard let section = readme.components(separatedBy: "## Misses that remain").dropFirst().first?
            .components(separatedBy: "\n## ").first else { return [] }
        return Set(section.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }
}

extension Expectation {
    /// The label as the corpus README and the scorer name it: its kind and target, without the
    /// kind it expects or a bracketed remark.
    var labelText: String {
        var text = Substring(raw)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = text[text.index(after: close)...]
        }
        if let arrow = text.range(of: " -> ") {
            text = text[..<arrow.lowerBound]
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
