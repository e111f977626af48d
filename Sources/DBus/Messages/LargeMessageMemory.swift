import CSystemdBus

/// What a large incoming message leaves behind in a long-running process.
///
/// sd-bus reads each message whole into one buffer of the message's size, before anyone can
/// look at it; a message over the limits (``BusReadLimits``) is refused without being turned
/// into values, but its buffer was there. With glibc's allocator as it comes, freeing that
/// buffer raised the allocator's thresholds, and the process kept 9 to 22 MiB more resident
/// after a single refused 64 MiB argument (Docs/Reliability.md, "Bounds on D-Bus input").
public enum LargeMessageMemory {
    /// Makes blocks of 256 KiB and more go back to the system when they are freed, and the
    /// heap shrink when more than 1 MiB at its top is free (fixed `mallopt` thresholds, which
    /// also keep glibc from raising them). Call it once, early, in a process that serves a bus
    /// any client can write to; it changes the allocator for the whole process.
    public static func returnLargeBlocksWhenFreed() {
        routekit_return_large_blocks()
    }
}
