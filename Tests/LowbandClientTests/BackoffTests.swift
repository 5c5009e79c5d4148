import LowbandClient
import LowbandDeterminism
import Testing

@Suite struct BackoffTests {
    @Test func delaysDoubleUpToTheCap() {
        let backoff = Backoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0)
        #expect((0 ..< 6).map { backoff.ceiling(attempt: $0) } == [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
        ])
        #expect(backoff.ceiling(attempt: 10_000) == .seconds(1))
    }

    @Test func jitterStaysWithinItsShareAndReplaysFromTheSeed() {
        let backoff = Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(8), jitter: 0.5)
        var a = SeededGenerator(seed: 3)
        var b = SeededGenerator(seed: 3)
        let first = (0 ..< 50).map { backoff.delay(attempt: $0 % 5, using: &a) }
        #expect(first == (0 ..< 50).map { backoff.delay(attempt: $0 % 5, using: &b) })
        for (index, delay) in first.enumerated() {
            let ceiling = backoff.ceiling(attempt: index % 5)
            #expect(delay <= ceiling && delay >= ceiling / 2)
        }
        #expect(Set(first).count > 40, "jitter spreads the delays")
    }
}
