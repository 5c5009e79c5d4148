package import Testing

extension Tag {
    /// A suite that measures physical figures or runs real timers and sockets on the wall clock.
    ///
    /// scripts/test.sh runs these suites in a second pass, alone and one at a time, so the
    /// parallel pass does not starve them of the machine; it reads the list from this tag in the
    /// sources (`swift test --filter tag:` is not in Swift 6.3's `swift test`). Each tagged suite
    /// says why it needs the machine to itself.
    @Tag package static var wallClock: Self
}
