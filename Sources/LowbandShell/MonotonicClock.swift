import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the shell's one clock, read at the edge (the loop), never
/// inside the link model, which is handed the time.
package struct MonotonicClock: Sendable {
    package init() {}

    /// Nanoseconds since an arbitrary fixed point (the machine's boot).
    package func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
