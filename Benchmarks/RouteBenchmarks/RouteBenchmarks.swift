// Placeholder: the switch-latency benchmarks are being written.
@main
enum RouteBenchmarks {
    static func main() {}
}
