import ArgumentParser
import RouteCtlCommands
import WorkerPool

// Thin entry point: everything routectl does lives in RouteCtlCommands, where tests reach it.
// A synchronous main, so that routectl's own executors are in place before the first task
// (RouteCtlExecutors): an idle `routectl daemon` must wake for nothing.
@main
enum RouteCtlMain {
    static func main() {
        RouteCtlExecutors.run { await RouteCtl.mainCheckingArguments() }
    }
}
