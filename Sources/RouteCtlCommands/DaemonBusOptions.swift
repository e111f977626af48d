import ArgumentParser

/// `routectl daemon`'s D-Bus options (``DaemonBusSettings`` sets the API up from them).
struct DaemonBusOptions: ParsableArguments {
    /// Whether to serve RouteKit's D-Bus API (`--dbus`, the default, or `--no-dbus`).
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Serve the D-Bus API, io.github.routekit.RouteKit1, on the session bus (DBUS_SESSION_BUS_ADDRESS)."))
    var dbus = true

    /// Whether to answer for callaudiod too (`--callaudio`).
    @Flag(name: .customLong("callaudio"), help: ArgumentHelp(
        "Also answer for callaudiod (org.mobian_project.CallAudio), so that GNOME Calls, Chatty and callaudiocli drive RouteKit."))
    var callAudio = false

    /// Refuses `--callaudio` without the bus.
    func validate() throws {
        if callAudio && !dbus { throw ValidationError("--callaudio needs the D-Bus API: drop --no-dbus.") }
    }
}
