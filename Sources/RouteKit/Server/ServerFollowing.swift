/// What followers of the server other than the route engine (media pausing, silent mode)
/// share about timing.
package enum ServerFollowing {
    /// How long a read that is not urgent waits after the event that asks for it: long enough
    /// for the route switch the same event may cause (about a millisecond) to be done first,
    /// so that the one-threaded server and a small machine's cores go to the switch.
    package static let quietReadDelay = Duration.milliseconds(5)
}
