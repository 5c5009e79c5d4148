package import Testing

extension Tag {
    /// A suite that measures physical figures or runs real timers and sockets on the wall clock.
    ///
    /// scripts/test.sh runs these suites in a second pass, one at a time, so the parallel pass
    /// does not starve them of the machine; it reads the list from this tag in the sources
    /// (`swift test --filter tag:` is not in Swift 6.3's `swift test`). Each tagged suite says
    /// why it needs the machine.
    @Tag package static var wallClock: Self

    /// A `.wallClock` suite that runs whole programs on real time and asserts what they end
    /// with (a verdict, a record, nothing lost), not a figure with a tolerance: explore sweeps
    /// over real stacks, soak kills.
    ///
    /// scripts/test.sh runs these in a lane of their own beside the figure suites, one at a
    /// time and at a lower priority (nice 10), so a figure never waits on them; they mostly
    /// wait on timers themselves. A suite carries both tags: `.tags(.wallClock, .sweep)`.
    @Tag package static var sweep: Self
}
