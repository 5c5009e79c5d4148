/// Measures how long a piece of screen work took: the one clock the screen queue reads.
///
/// The product measures real work with `ContinuousWorkClock`; virtual-time runs and tests
/// inject a clock they control, so dropped-frame counts replay exactly. Nothing in the
/// engine's logic decides anything from this clock; it only feeds the dropped-frame metric.
public protocol WorkClock: AnyObject {
    /// A monotonic reading; only differences mean anything.
    var now: Duration { get }
}

/// The monotonic system clock, for measuring real work in the product.
package final class ContinuousWorkClock: WorkClock {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// A clock whose zero is now.
    package init() {
        origin = clock.now
    }

    /// Time since the clock was made.
    package var now: Duration { clock.now - origin }
}

/// A clock that moves only when told: work "takes" what the test says it takes.
public final class ManualWorkClock: WorkClock {
    /// The time the test has advanced the clock to.
    public private(set) var now: Duration = .zero

    /// A clock at zero.
    public init() {}

    /// Moves the clock forward, as if the running work took `duration`.
    public func advance(by duration: Duration) {
        now += duration
    }
}
