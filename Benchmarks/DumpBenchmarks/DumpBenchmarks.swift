#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// `routectl list --from-dump` on hostile inputs of 1 MB and 10 MB (and any other sizes
/// given), each in a process of its own: wall time and peak memory, the best of a few runs,
/// and how each grows with the size (linear: time ×10 and memory ×10 at most for 10× the input).
///
/// Usage: `dump-benchmarks [--runs N] [--sizes 1,10] [--routectl PATH]` (sizes in MB).
/// (`dump-benchmarks --measure COMMAND…` is its own measuring side: see ``ChildRun``.)
@main
struct DumpBenchmarks {
    static func main() async throws {
        if CommandLine.arguments.dropFirst().first == ChildRun.measureFlag {
            exit(await ChildRun.measure(Array(CommandLine.arguments.dropFirst(2))))
        }
        var runs = 3
        var sizes = [1, 10]
        var routectl = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("routectl").path
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--runs": runs = arguments.popFirst().flatMap { Int($0) } ?? runs
            case "--sizes": sizes = arguments.popFirst().map { $0.split(separator: ",").compactMap { Int($0) } } ?? sizes
            case "--routectl": routectl = arguments.popFirst() ?? routectl
            default:
                print("usage: dump-benchmarks [--runs N] [--sizes 1,10] [--routectl PATH]")
                exit(64)
            }
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let realDump = try String(contentsOf: repository.appendingPathComponent(
            "Tests/Corpus/18_laptop-legion5-alc287-plus-usb-headset-corsair-hs70-sinks-and-sources_pw.txt"), encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dump-benchmarks-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        print("| input | size | exit | time (best of \(runs)) | peak memory | time ÷ smallest | memory ÷ smallest |")
        print("|---|---|---|---|---|---|---|")
        for shape in HostileInput.allCases {
            var first: ChildRun?
            for megabytes in sizes {
                let file = directory.appendingPathComponent("\(shape.rawValue)-\(megabytes)MB.txt")
                try Data(shape.text(size: megabytes << 20, realDump: realDump).utf8).write(to: file)
                var measured: [ChildRun] = []
                for _ in 0..<runs {
                    if let run = await ChildRun.run(routectl, ["list", "--from-dump", file.path, "--json"]) { measured.append(run) }
                }
                guard let best = measured.min(by: { $0.seconds < $1.seconds }),
                      let peak = measured.map(\.peakKilobytes).min() else {
                    print("| \(shape.rawValue) | \(megabytes) MB | could not run \(routectl) | | | | |")
                    continue
                }
                let base = first ?? best
                first = first ?? best
                print("| \(shape.rawValue) | \(megabytes) MB | \(best.status) | \(format(best.seconds)) s | \(peak / 1024) MB "
                      + "| \(format(best.seconds / base.seconds))× | \(format(Double(peak) / Double(base.peakKilobytes)))× |")
            }
        }
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
