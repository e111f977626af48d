import CPulseAudio

// Every C callback RouteKit hands libpulse. They are plain functions at file scope, never
// closure literals: a closure literal written in main-actor code inherits the main actor
// and traps when libpulse calls it on its own thread. Each one runs on the loop thread
// with the loop lock held, copies what it needs into Swift values, and returns.

/// A list entry, or the end of a list, for any `ListOperation`.
private func deliverListEntry<Info, Element: Sendable>(
    _ context: OpaquePointer?, _ info: UnsafePointer<Info>?, _ eol: Int32,
    _ userdata: UnsafeMutableRawPointer?, _ convert: (Info) -> Element
) {
    guard let userdata else { return }
    let operation = Unmanaged<ListOperation<Element>>.fromOpaque(userdata).takeUnretainedValue()
    if eol < 0 {
        operation.fail(context: context)
    } else if eol > 0 {
        operation.resolve(.success(operation.items))
    } else if let info {
        operation.items.append(convert(info.pointee))
    }
}

func sinkInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_sink_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, SinkInfo.init)
}

func sourceInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_source_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, SourceInfo.init)
}

func cardInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_card_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, CardInfo.init)
}

func sinkInputInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_sink_input_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, SinkInputInfo.init)
}

func sourceOutputInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_source_output_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, SourceOutputInfo.init)
}

func clientInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_client_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, ClientInfo.init)
}

func moduleInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_module_info>?, _ eol: Int32, _ u: UnsafeMutableRawPointer?) {
    deliverListEntry(c, i, eol, u, ModuleInfo.init)
}

func serverInfoCallback(_ c: OpaquePointer?, _ i: UnsafePointer<pa_server_info>?, _ u: UnsafeMutableRawPointer?) {
    guard let u else { return }
    let operation = Unmanaged<PendingOperation<ServerInfo>>.fromOpaque(u).takeUnretainedValue()
    if let i {
        operation.resolve(.success(ServerInfo(i.pointee)))
    } else {
        operation.fail(context: c)
    }
}

func successCallback(_ c: OpaquePointer?, _ success: Int32, _ u: UnsafeMutableRawPointer?) {
    guard let u else { return }
    let operation = Unmanaged<PendingOperation<Void>>.fromOpaque(u).takeUnretainedValue()
    if success != 0 {
        operation.resolve(.success(()))
    } else {
        operation.fail(context: c)
    }
}

func indexCallback(_ c: OpaquePointer?, _ index: UInt32, _ u: UnsafeMutableRawPointer?) {
    guard let u else { return }
    let operation = Unmanaged<PendingOperation<UInt32>>.fromOpaque(u).takeUnretainedValue()
    if validIndex(index) != nil {
        operation.resolve(.success(index))
    } else {
        operation.fail(context: c)
    }
}

/// Releases an operation's record once libpulse is done with it, whatever the reason.
func operationStateCallback(_ handle: OpaquePointer?, _ u: UnsafeMutableRawPointer?) {
    guard let handle, let u else { return }
    let state = pa_operation_get_state(handle)
    guard state == PA_OPERATION_DONE || state == PA_OPERATION_CANCELLED else { return }
    pa_operation_set_state_callback(handle, nil, nil)
    let record = Unmanaged<OperationRecord>.fromOpaque(u).takeRetainedValue()
    record.ended(cancelled: state == PA_OPERATION_CANCELLED)
    pa_operation_unref(handle)
}

func contextStateCallback(_ context: OpaquePointer?, _ u: UnsafeMutableRawPointer?) {
    guard let context, let u else { return }
    let core = Unmanaged<ConnectionCore>.fromOpaque(u).takeUnretainedValue()
    core.contextStateChanged(context, pa_context_get_state(context))
}

func subscriptionCallback(_ context: OpaquePointer?, _ type: pa_subscription_event_type_t, _ index: UInt32, _ u: UnsafeMutableRawPointer?) {
    guard let u else { return }
    let core = Unmanaged<ConnectionCore>.fromOpaque(u).takeUnretainedValue()
    let event = SubscriptionEvent(type: type, index: index)
    if core.standingFallback != nil, let context { core.fireStandingFallback(for: event, on: context) }
    core.broadcaster.yield(.subscription(event))
}

func successorSubscribedCallback(_ context: OpaquePointer?, _ success: Int32, _ u: UnsafeMutableRawPointer?) {
    guard let context, let u else { return }
    let core = Unmanaged<ConnectionCore>.fromOpaque(u).takeUnretainedValue()
    core.successorSubscribed(context, success: success != 0)
}

func retiredDrainedCallback(_ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?, _ u: UnsafeMutableRawPointer?) {
    guard let context, let u else { return }
    let core = Unmanaged<ConnectionCore>.fromOpaque(u).takeUnretainedValue()
    core.retiredDrained(context)
}

/// libpulse's main loop saw the executor's wake descriptor readable (loop thread, lock held).
func loopExecutorWakeCallback(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ event: OpaquePointer?,
                              _ descriptor: Int32, _ flags: pa_io_event_flags_t, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<LoopThreadExecutor>.fromOpaque(userdata).takeUnretainedValue().runQueuedJobs()
}
