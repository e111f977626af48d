import CSystemdBus
import ConcurrencySupport
import Glibc
import Logging

/// One sd-bus connection and the one thread that owns it.
///
/// sd-bus is not thread-safe, so everything that touches the `sd_bus` — opening it, sending,
/// dispatching, the callbacks it makes, closing it — happens on this thread. Other threads
/// hand it work as ``Job``s and wake it through an eventfd. Between events the thread sleeps
/// in `poll(2)` on the bus's socket and the eventfd, with sd-bus's own timeout (none unless a
/// call is waiting for its reply), so an idle connection costs no wake-ups at all.
///
/// `@unchecked Sendable`: `bus`, `heldCalls`, `nextHeldCall`, `exports`, `matches` and `nextMatch` are read and
/// written only on the connection's thread (the loop, the jobs it runs and the sd-bus
/// callbacks it dispatches); `shared` is behind its mutex; everything else is immutable.
final class BusLoop: @unchecked Sendable {
    /// Work for the connection's thread. It finds ``bus`` nil when the connection has ended,
    /// and must then fail whatever it was asked for.
    typealias Job = @Sendable (BusLoop) -> Void

    private enum Phase {
        case starting(CheckedContinuation<Void, any Error>?)
        case running
        case closing
        case ended
    }

    private struct Shared {
        var jobs: [Job] = []
        var phase = Phase.starting(nil)
    }

    let address: BusAddress
    let logger: Logger
    /// Fires when the thread has ended.
    let ended = EndSignal()
    private let shared = LockedValue(Shared())
    private let wakeDescriptor: Int32

    // Confined to the connection's thread.
    /// The connection; nil before it opens and after it ends.
    private(set) var bus: OpaquePointer?
    /// Incoming calls waiting for their answer, by the id their ``BusMethodCall`` carries.
    private var heldCalls: [UInt64: OpaquePointer] = [:]
    private var nextHeldCall: UInt64 = 0
    /// The exported objects' registrations, by object.
    private var exports: [ObjectIdentifier: OpaquePointer] = [:]
    /// The signal matches' slots, by id.
    private var matches: [UInt64: OpaquePointer] = [:]
    private var nextMatch: UInt64 = 0

    init(address: BusAddress, logger: Logger) throws(BusError) {
        self.address = address
        self.logger = logger
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw BusError(errno: errno, doing: "create the connection's wake-up eventfd") }
        wakeDescriptor = descriptor
    }

    deinit {
        close(wakeDescriptor)
    }

    // MARK: Any thread

    /// Starts the thread, which opens the connection; returns once it is open. Throws a
    /// ``BusError`` when it cannot be opened (no bus at the address, refused).
    func start() async throws(BusError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                shared.withLock { $0.phase = .starting(continuation) }
                var thread = pthread_t()
                let retained = Unmanaged.passRetained(self).toOpaque()
                let created = pthread_create(&thread, nil, busThreadMain, retained)
                if created != 0 {
                    Unmanaged<BusLoop>.fromOpaque(retained).release()
                    shared.withLock { $0.phase = .ended }
                    continuation.resume(throwing: BusError(errno: created, doing: "start the bus thread"))
                    return
                }
                pthread_detach(thread)
            }
        } catch let error as BusError {
            throw error
        } catch {
            throw BusError.failed("\(error)")
        }
    }

    /// Queues `job` for the connection's thread and wakes it. Returns false, without queueing,
    /// when the connection is closing or has ended. Only the first job of a batch wakes the
    /// thread (it takes every queued job at once): a flood of answers costs one wake per
    /// batch, not a system call and a turn of `poll(2)` each.
    @discardableResult
    func enqueue(_ job: @escaping Job) -> Bool {
        let (accepted, first) = shared.withLock { shared -> (Bool, Bool) in
            guard case .running = shared.phase else { return (false, false) }
            shared.jobs.append(job)
            return (true, shared.jobs.count == 1)
        }
        if first { wake() }
        return accepted
    }

    /// Asks the thread to send what is queued, close the connection and end.
    func requestClose() {
        let asked = shared.withLock { shared -> Bool in
            guard case .running = shared.phase else { return false }
            shared.phase = .closing
            return true
        }
        if asked { wake() }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: The connection's thread

    /// The thread's whole life: open, serve, tear down.
    func runThread() {
        let opened = open()
        let starting = shared.withLock { shared -> CheckedContinuation<Void, any Error>? in
            guard case .starting(let continuation) = shared.phase else { return nil }
            shared.phase = opened.bus == nil ? .ended : .running
            return continuation
        }
        guard let bus = opened.bus else {
            let error = opened.error ?? .failed("the connection could not be opened")
            starting?.resume(throwing: error)
            ended.fire(.lost(error))
            return
        }
        self.bus = bus
        starting?.resume()
        let loss = serve(bus)
        if let loss { logger.debug("bus connection lost", metadata: ["reason": "\(loss.message)"]) }
        tearDown(bus)
        ended.fire(loss.map(BusDisconnection.lost) ?? .closed)
    }

    private func open() -> (bus: OpaquePointer?, error: BusError?) {
        guard let resolved = address.resolved else {
            return (nil, .disconnected("no session bus: neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set"))
        }
        var bus: OpaquePointer?
        var result = sd_bus_new(&bus)
        if result >= 0 { result = resolved.withCString { sd_bus_set_address(bus, $0) } }
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        // As sd_bus_open_user does: on a session bus (or one given by address, the tests' and
        // the daemon's private ones) the bus's policy is the access control, and sd-bus checks
        // no caller per method. Untrusted, it asks the bus for the caller's credentials before
        // each method call, a blocking round trip on this thread (a flood of calls then cost
        // two messages each, and another client's Status waited behind both).
        if result >= 0, address != .system { result = sd_bus_set_trusted(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        // Before sd-bus answers Properties calls itself (a floating slot: it lives with the bus).
        if result >= 0 { result = sd_bus_add_filter(bus, nil, incomingMessageFiltered, nil) }
        guard result >= 0, let bus else {
            sd_bus_unref(bus)
            return (nil, BusError(errno: -result, doing: "connect to \(resolved)", name: BusError.disconnectedName))
        }
        return (bus, nil)
    }

    /// Runs jobs and dispatches messages until the connection is closed (nil) or lost (why).
    private func serve(_ bus: OpaquePointer) -> BusError? {
        while true {
            guard runJobs() else { return nil }
            while true {
                let processed = sd_bus_process(bus, nil)
                if processed < 0 { return BusError(errno: -processed, doing: "read from the bus", name: BusError.disconnectedName) }
                if processed == 0 { break }
            }
            if sd_bus_is_open(bus) <= 0 { return .disconnected("the bus closed the connection") }
            if let failure = sleep(bus) { return failure }
        }
    }

    /// Runs the queued jobs; false when a close was asked for (after running them, so that
    /// answers and signals queued before it still go out).
    private func runJobs() -> Bool {
        let (jobs, closing) = shared.withLock { shared -> ([Job], Bool) in
            defer { shared.jobs = [] }
            if case .closing = shared.phase { return (shared.jobs, true) }
            return (shared.jobs, false)
        }
        for job in jobs { job(self) }
        return !closing
    }

    /// Sleeps until the bus's socket is ready as sd-bus wants it, a job is queued, or sd-bus's
    /// own deadline passes (a call's timeout; none while idle).
    private func sleep(_ bus: OpaquePointer) -> BusError? {
        let descriptor = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        var deadline: UInt64 = 0
        let timed = sd_bus_get_timeout(bus, &deadline)
        guard descriptor >= 0, events >= 0, timed >= 0 else {
            return BusError(errno: -min(descriptor, events, timed), doing: "wait on the bus", name: BusError.disconnectedName)
        }
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(truncatingIfNeeded: events), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let polled = poll(&descriptors, 2, Self.milliseconds(until: deadline))
        if polled < 0 && errno != EINTR { return BusError(errno: errno, doing: "poll the bus", name: BusError.disconnectedName) }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            var counter: UInt64 = 0
            _ = read(wakeDescriptor, &counter, MemoryLayout<UInt64>.size)
        }
        return nil
    }

    /// poll(2)'s timeout for sd-bus's absolute CLOCK_MONOTONIC deadline: -1 for none.
    static func milliseconds(until deadline: UInt64) -> Int32 {
        guard deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1_000)
    }

    /// Lets go of everything sd-bus holds for us, then of the connection itself. Jobs queued
    /// meanwhile run with ``bus`` nil, so that they fail their callers.
    private func tearDown(_ bus: OpaquePointer) {
        // Unanswered incoming calls: their callers get NoReply from the bus when we leave it.
        for message in heldCalls.values { sd_bus_message_unref(message) }
        heldCalls = [:]
        // Unexporting runs each object's slot destroy callback, which ends its stream of calls.
        for slot in exports.values { sd_bus_slot_unref(slot) }
        exports = [:]
        // Likewise for matches, whose streams end.
        for slot in matches.values { sd_bus_slot_unref(slot) }
        matches = [:]
        // Sends what is queued (a closing connection's last answers), then frees the bus, whose
        // floating call slots fail their callers from their destroy callbacks.
        sd_bus_flush_close_unref(bus)
        self.bus = nil
        let leftovers = shared.withLock { shared -> [Job] in
            shared.phase = .ended
            defer { shared.jobs = [] }
            return shared.jobs
        }
        for job in leftovers { job(self) }
    }

    // MARK: On the connection's thread, for jobs and callbacks

    /// Keeps an incoming call (a new reference) until it is answered; returns its id.
    func hold(_ message: OpaquePointer) -> UInt64 {
        nextHeldCall += 1
        heldCalls[nextHeldCall] = sd_bus_message_ref(message)
        return nextHeldCall
    }

    /// The held call with `id`, no longer held (the caller unrefs it); nil when it is gone.
    func release(_ id: UInt64) -> OpaquePointer? {
        heldCalls.removeValue(forKey: id)
    }

    /// Remembers an exported object's registration until ``forgetExport(_:)`` or the end.
    func rememberExport(_ slot: OpaquePointer, for object: ObjectIdentifier) {
        exports[object] = slot
    }

    /// The registration of an exported object, no longer remembered.
    func forgetExport(_ object: ObjectIdentifier) -> OpaquePointer? {
        exports.removeValue(forKey: object)
    }

    /// Remembers a match's slot until ``forgetMatch(_:)`` or the end; returns its id.
    func rememberMatch(_ slot: OpaquePointer) -> UInt64 {
        nextMatch += 1
        matches[nextMatch] = slot
        return nextMatch
    }

    /// A match's slot, no longer remembered.
    func forgetMatch(_ id: UInt64) -> OpaquePointer? {
        matches.removeValue(forKey: id)
    }
}

extension BusError {
    /// An error from an errno value (positive), saying what was being done.
    init(errno code: Int32, doing what: String, name: String = BusError.failedName) {
        let reason = String(cString: strerror(code))
        self.init(name: name, message: "could not \(what): \(reason)")
    }
}
