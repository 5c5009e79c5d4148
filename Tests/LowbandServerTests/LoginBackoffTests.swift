@testable import LowbandServer
import Testing

/// Failed logins are remembered per source address, with a bound and an expiry, so reconnecting
/// does not reset the back-off and a flood of addresses costs the server a bounded table.
@Suite struct LoginBackoffTests {
    let limits = ConnectionLimits(loginFailureDelay: .milliseconds(250), loginFailureDelayCap: .seconds(4), loginFailureMemory: .seconds(60), loginFailureSources: 3)

    @Test func anAddressKeepsCountingAcrossConnectionsUntilItsMemoryRunsOut() {
        var backoff = LoginBackoff(limits: limits)
        #expect(backoff.failed(from: "10.0.0.1", at: .seconds(1)) == 1)
        #expect(backoff.failed(from: "10.0.0.1", at: .seconds(2)) == 2)
        #expect(backoff.failed(from: "10.0.0.2", at: .seconds(3)) == 1)
        #expect(backoff.failures(from: "10.0.0.1", at: .seconds(61)) == 2)
        // 60 s after its last failure the address starts again.
        #expect(backoff.failures(from: "10.0.0.1", at: .seconds(62)) == 0)
        #expect(backoff.failed(from: "10.0.0.1", at: .seconds(62)) == 1)
    }

    @Test func theTableHoldsItsBoundAndForgetsTheOldestAddressFirst() {
        var backoff = LoginBackoff(limits: limits)
        _ = backoff.failed(from: "b", at: .seconds(1))
        _ = backoff.failed(from: "a", at: .seconds(1))
        _ = backoff.failed(from: "c", at: .seconds(2))
        _ = backoff.failed(from: "d", at: .seconds(3))
        // a and b failed last at the same time: the tie goes by address, so a goes.
        #expect(backoff.entries.keys.sorted() == ["b", "c", "d"])
        for index in 0 ..< 1_000 { _ = backoff.failed(from: "flood-\(index)", at: .seconds(4)) }
        #expect(backoff.entries.count == 3)
        // Expired entries go before a live one is evicted.
        _ = backoff.failed(from: "late", at: .seconds(100))
        #expect(backoff.entries.keys.sorted() == ["late"])
    }

    @Test func theDelayFollowsTheWorseOfConnectionAndAddressUpToItsCap() {
        var standing = SessionGuard(limits: limits, openedAt: .zero)
        #expect(standing.loginFailed().delay == .milliseconds(250))
        #expect(standing.loginFailed(addressFailures: 4).delay == .seconds(2))
        #expect(standing.loginFailed(addressFailures: 9).delay == .seconds(4))
        #expect(standing.loginFailed(addressFailures: 64).delay == .seconds(4))
    }
}
