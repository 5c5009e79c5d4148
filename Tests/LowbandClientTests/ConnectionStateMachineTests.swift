import LowbandClient
import LowbandDeterminism
import LowbandWire
import Testing

@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    private let configuration = ConnectionConfiguration(
        requestTimeout: .seconds(5), loginTimeout: .seconds(7), heartbeatInterval: .seconds(10),
        heartbeatTimeout: .seconds(3), backoff: Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(8), jitter: 0))

    /// A machine that is logged in; the login used sequence 1.
    private func loggedIn() -> Machine {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        #expect(machine.start() == [.connect])
        #expect(machine.linkOpened(now: .zero) == [.sendLogin(sequence: 1, timeout: .seconds(7))])
        #expect(machine.received(flags: .response, command: .login, sequence: 1, now: .zero) == [.deliverLoginReply(sequence: 1)])
        #expect(machine.loginSucceeded(now: .zero) == [.reportLoggedIn, .scheduleHeartbeat(after: .seconds(10))])
        #expect(machine.isLoggedIn)
        return machine
    }

    @Test func connectsLogsInAndMultiplexesRepliesInAnyOrder() {
        var machine = loggedIn()
        #expect(machine.sendRequest(command: .history, now: .zero) == [.sendRequest(sequence: 2, timeout: .seconds(5))])
        #expect(machine.sendRequest(command: .sendMessage, timeout: .seconds(1), now: .zero) == [.sendRequest(sequence: 3, timeout: .seconds(1))])
        #expect(machine.received(flags: .response, command: .sendMessage, sequence: 3, now: .seconds(1)) == [.deliverReply(sequence: 3)])
        #expect(machine.received(flags: .push, command: .pushNewMessage, sequence: 1, now: .seconds(1)) == [.deliverPush])
        #expect(machine.received(flags: .response, command: .history, sequence: 2, now: .seconds(1)) == [.deliverReply(sequence: 2)])
        #expect(machine.pendingCount == 0)
    }

    @Test func unexpectedRepliesAreDroppedAndOtherRequestsCarryOn() {
        var machine = loggedIn()
        _ = machine.sendRequest(command: .history, now: .zero)  // 2
        _ = machine.sendRequest(command: .markRead, now: .zero)  // 3
        let unknown = machine.received(flags: .response, command: .history, sequence: 99, now: .zero)
        #expect(unknown.count == 1)
        guard case .dropUnexpected = unknown[0] else { Issue.record("\(unknown)"); return }
        let wrongType = machine.received(flags: .response, command: .sendMessage, sequence: 2, now: .zero)
        guard case .dropUnexpected = wrongType.first else { Issue.record("\(wrongType)"); return }
        #expect(machine.pendingCount == 2, "the wrong-type reply does not consume request 2")
        #expect(machine.received(flags: .response, command: .markRead, sequence: 3, now: .zero) == [.deliverReply(sequence: 3)])
        #expect(machine.received(flags: .response, command: .history, sequence: 2, now: .zero) == [.deliverReply(sequence: 2)])
        #expect(machine.isLoggedIn)
    }

    @Test func requestsWithoutASessionAreRejectedAtOnce() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        guard case .rejectRequest(let error) = machine.sendRequest(command: .history, now: .zero).first else { Issue.record("not rejected"); return }
        #expect(error.code == .notConnected)
        _ = machine.start()
        _ = machine.linkOpened(now: .zero)
        guard case .rejectRequest(let during) = machine.sendRequest(command: .history, now: .zero).first else { Issue.record("not rejected while logging in"); return }
        #expect(during.code == .notConnected)
    }

    @Test func aTimedOutRequestFailsAloneAndALateReplyIsDropped() {
        var machine = loggedIn()
        _ = machine.sendRequest(command: .history, now: .zero)  // 2
        _ = machine.sendRequest(command: .history, now: .zero)  // 3
        let timedOut = machine.requestTimedOut(sequence: 2, now: .seconds(5))
        guard case .failRequests([2], let error) = timedOut.first else { Issue.record("\(timedOut)"); return }
        #expect(error.code == .timedOut)
        guard case .dropUnexpected = machine.received(flags: .response, command: .history, sequence: 2, now: .zero).first else {
            Issue.record("late reply delivered"); return
        }
        #expect(machine.received(flags: .response, command: .history, sequence: 3, now: .zero) == [.deliverReply(sequence: 3)])
    }

    @Test func heartbeatPingsAQuietLinkAndAnUnansweredPingClosesIt() {
        var machine = loggedIn()
        // Traffic at 5 s: the tick at 10 s finds the link only 5 s quiet.
        _ = machine.received(flags: .push, command: .pushNewMessage, sequence: 1, now: .seconds(5))
        #expect(machine.heartbeatTimerFired(now: .seconds(10)) == [.scheduleHeartbeat(after: .seconds(5))])
        let tick = machine.heartbeatTimerFired(now: .seconds(20))
        #expect(tick == [.scheduleHeartbeat(after: .seconds(10)), .sendPing(sequence: 2, timeout: .seconds(3))])
        #expect(machine.heartbeatTimerFired(now: .seconds(30)) == [.scheduleHeartbeat(after: .seconds(10))], "one ping at a time")
        let dead = machine.requestTimedOut(sequence: 2, now: .seconds(23))
        guard case .closeLink(let error) = dead.first else { Issue.record("\(dead)"); return }
        #expect(error.code == .timedOut)
    }

    @Test func aPingWaitsWhileBytesArriveAndGivesUpOnlyAfterSilence() {
        var machine = loggedIn()
        #expect(machine.heartbeatTimerFired(now: .seconds(10)).last == .sendPing(sequence: 2, timeout: .seconds(3)))
        // A large frame is coming down: bytes, no whole frame yet.
        machine.receivedBytes(now: .seconds(12))
        #expect(machine.requestTimedOut(sequence: 2, now: .seconds(13)) == [.armTimeout(sequence: 2, after: .seconds(2))])
        machine.receivedBytes(now: .seconds(14))
        #expect(machine.requestTimedOut(sequence: 2, now: .seconds(15)) == [.armTimeout(sequence: 2, after: .seconds(2))])
        // Then nothing for the heartbeat timeout: dead.
        let dead = machine.requestTimedOut(sequence: 2, now: .seconds(17))
        guard case .closeLink(let error) = dead.first else { Issue.record("\(dead)"); return }
        #expect(error.code == .timedOut)
    }

    @Test func aLoginWaitsWhileItsReplyArrives() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        _ = machine.start()
        _ = machine.linkOpened(now: .zero)
        machine.receivedBytes(now: .seconds(6))
        #expect(machine.requestTimedOut(sequence: 1, now: .seconds(7)) == [.armTimeout(sequence: 1, after: .seconds(2))])
        machine.receivedBytes(now: .seconds(8))
        #expect(machine.received(flags: .response, command: .login, sequence: 1, now: .seconds(9)) == [.deliverLoginReply(sequence: 1)])
        #expect(machine.loginSucceeded(now: .seconds(9)) == [.reportLoggedIn, .scheduleHeartbeat(after: .seconds(10))])
    }

    @Test func aRequestUnansweredForTheUnansweredTimeoutClosesTheLinkThoughPushesArrive() {
        var machine = loggedIn()
        let unanswered = configuration.unansweredTimeout
        #expect(machine.sendRequest(command: .sendMessage, timeout: .seconds(60), now: .seconds(1)) == [.sendRequest(sequence: 2, timeout: unanswered)])
        #expect(machine.sendRequest(command: .history, now: .seconds(1)) == [.sendRequest(sequence: 3, timeout: .seconds(5))])
        // The history request times out alone; its reply stays owed.
        let timedOut = machine.requestTimedOut(sequence: 3, now: .seconds(6))
        guard case .failRequests([3], let error) = timedOut.first else { Issue.record("\(timedOut)"); return }
        #expect(error.code == .timedOut)
        #expect(timedOut.last == .armTimeout(sequence: 3, after: unanswered - .seconds(5)))
        #expect(machine.pendingCount == 2)
        for second in 2 ..< 31 {
            _ = machine.received(flags: .push, command: .pushNewMessage, sequence: 1, now: .seconds(Int64(second)))
        }
        let stuck = machine.requestTimedOut(sequence: 2, now: .seconds(1) + unanswered)
        guard case .closeLink(let reason) = stuck.first else { Issue.record("\(stuck)"); return }
        #expect(reason.code == .timedOut)
        // The close fails the send with connectionLost; the history request was told already.
        let closed = machine.linkClosed(error: reason)
        guard case .failRequests([2], let lost) = closed[1] else { Issue.record("\(closed)"); return }
        #expect(lost.code == .connectionLost)
    }

    @Test func aLateReplyProvesTheWayUpAndIsDropped() {
        var machine = loggedIn()
        _ = machine.sendRequest(command: .history, now: .zero)  // 2
        _ = machine.requestTimedOut(sequence: 2, now: .seconds(5))
        guard case .dropUnexpected = machine.received(flags: .response, command: .history, sequence: 2, now: .seconds(8)).first else {
            Issue.record("late reply delivered"); return
        }
        #expect(machine.pendingCount == 0, "no longer owed")
        #expect(machine.requestTimedOut(sequence: 2, now: .seconds(30)).isEmpty, "its timer finds nothing to do")
        #expect(machine.isLoggedIn)
    }

    @Test func aLostLinkFailsRequestsInSequenceOrderAndReconnectsWithBackoff() {
        var machine = loggedIn()
        for _ in 0 ..< 3 { _ = machine.sendRequest(command: .sendMessage, now: .zero) }  // 2, 3, 4
        let actions = machine.linkClosed(error: nil)
        #expect(actions.count == 4)
        #expect(actions[0] == .cancelTimers)
        guard case .failRequests([2, 3, 4], let error) = actions[1] else { Issue.record("\(actions)"); return }
        #expect(error.code == .connectionLost)
        #expect(actions[3] == .scheduleReconnect(after: .seconds(1)))
        #expect(machine.state == .waitingToReconnect(attempt: 0))
        // Failed attempts back off 2 s, 4 s, 8 s, 8 s.
        var delays: [Duration] = []
        for _ in 0 ..< 4 {
            #expect(machine.reconnectTimerFired() == [.connect])
            for action in machine.connectFailed(ClientError(.connectionLost, "refused")) {
                if case .scheduleReconnect(let delay) = action { delays.append(delay) }
            }
        }
        #expect(delays == [.seconds(2), .seconds(4), .seconds(8), .seconds(8)])
        // A successful login resets the attempt count.
        _ = machine.reconnectTimerFired()
        _ = machine.linkOpened(now: .zero)
        _ = machine.received(flags: .response, command: .login, sequence: 5, now: .zero)
        _ = machine.loginSucceeded(now: .zero)
        #expect(machine.linkClosed(error: nil).last == .scheduleReconnect(after: .seconds(1)))
    }

    @Test func aRefusedTokenStopsForGood() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        _ = machine.start()
        _ = machine.linkOpened(now: .zero)
        _ = machine.received(flags: [.response, .error], command: .login, sequence: 1, now: .zero)
        let actions = machine.loginFailed(ClientError(.unauthorized, "bad token"))
        #expect(machine.state == .stopped)
        guard case .reportStopped(let error) = actions.last else { Issue.record("\(actions)"); return }
        #expect(error.code == .unauthorized)
        #expect(machine.linkClosed(error: nil).isEmpty)
        #expect(machine.reconnectTimerFired().isEmpty)
    }

    @Test func anotherLoginFailureDropsTheLinkAndRetries() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        _ = machine.start()
        _ = machine.linkOpened(now: .zero)
        #expect(machine.requestTimedOut(sequence: 1, now: .seconds(7)).first.map { if case .closeLink = $0 { true } else { false } } == true)
        #expect(machine.linkClosed(error: nil).last == .scheduleReconnect(after: .seconds(2)))
    }

    @Test func stopFailsEverythingAndClosesTheLink() {
        var machine = loggedIn()
        _ = machine.sendRequest(command: .history, now: .zero)
        let actions = machine.stop()
        #expect(actions.first == .cancelTimers)
        guard case .failRequests([2], let error) = actions[1] else { Issue.record("\(actions)"); return }
        #expect(error.code == .stopped)
        #expect(machine.stop().isEmpty)
        guard case .rejectRequest(let rejected) = machine.sendRequest(command: .history, now: .zero).first else { Issue.record("accepted"); return }
        #expect(rejected.code == .stopped)
    }

    @Test func framesWithoutASessionAreDropped() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        guard case .dropUnexpected = machine.received(flags: .push, command: .pushNewMessage, sequence: 1, now: .zero).first else {
            Issue.record("delivered"); return
        }
    }

    /// Found by `lowband explore` (seed 466, `--faults toxic-reset-peer`): a link that lost its
    /// login reply but kept delivering pushes. The login waited for its reply while the pushes
    /// kept the link busy, and the cache took them as continuing what it had, hiding the gap
    /// for good. The server sends the reply before any push, so a push first means the reply
    /// was lost: the link is dropped, and the next login's delta sync brings what was pushed.
    @Test func aPushBeforeTheLoginReplyDropsTheLink() {
        var machine = Machine(configuration: configuration, generator: SeededGenerator(seed: 1))
        _ = machine.start()
        _ = machine.linkOpened(now: .zero)
        let early = machine.received(flags: .push, command: .pushNewMessage, sequence: 1, now: .seconds(1))
        guard case .closeLink(let error) = early.first, early.count == 1 else { Issue.record("\(early)"); return }
        #expect(error.message.contains("before the login reply"))
        #expect(!machine.isLoggedIn)
    }
}
