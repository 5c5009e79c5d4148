import LowbandDeterminism
import Testing

@Suite struct VirtualSchedulerTests {
    @Test func workRunsAtItsDeadlineInSchedulingOrder() {
        let scheduler = VirtualScheduler()
        var log: [String] = []
        scheduler.schedule(after: .seconds(2)) { log.append("b@\(scheduler.now)") }
        scheduler.schedule(after: .seconds(1)) { log.append("a@\(scheduler.now)") }
        scheduler.schedule(after: .seconds(2)) { log.append("c@\(scheduler.now)") }
        scheduler.advance(by: .milliseconds(999))
        #expect(log.isEmpty)
        scheduler.advance(by: .seconds(5))
        #expect(log == ["a@1.0 seconds", "b@2.0 seconds", "c@2.0 seconds"])
        #expect(scheduler.now == .milliseconds(5_999))
    }

    @Test func workScheduledWhileRunningRunsInTheSameAdvance() {
        let scheduler = VirtualScheduler()
        var ticks: [Duration] = []
        func tick() {
            ticks.append(scheduler.now)
            if ticks.count < 5 { scheduler.schedule(after: .milliseconds(100), tick) }
        }
        scheduler.execute(tick)
        scheduler.advance(by: .milliseconds(250))
        #expect(ticks == [.zero, .milliseconds(100), .milliseconds(200)])
        #expect(scheduler.runUntilIdle() == 2)
        #expect(scheduler.now == .milliseconds(400))
    }

    @Test func cancelledWorkNeverRuns() {
        let scheduler = VirtualScheduler()
        var ran = false
        let work = scheduler.schedule(after: .seconds(1)) { ran = true }
        #expect(scheduler.pendingCount == 1)
        scheduler.cancel(work)
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.nextDeadline == nil)
        scheduler.advance(by: .seconds(2))
        #expect(!ran)
    }

    /// Engines cancel a request's time-out on every answer, so cancelling is a lookup, and
    /// cancelling work buried in the heap, already run or already cancelled changes nothing else.
    @Test func cancellingBuriedRunOrCancelledWorkLeavesTheRestAlone() {
        let scheduler = VirtualScheduler()
        var ran: [Int] = []
        var handles: [ScheduledWork] = []
        for index in 0 ..< 10 {
            handles.append(scheduler.schedule(after: .seconds(Int64(index + 1))) { ran.append(index) })
        }
        scheduler.cancel(handles[6])
        scheduler.cancel(handles[6])
        #expect(scheduler.pendingCount == 9)
        scheduler.advance(by: .seconds(3))
        #expect(ran == [0, 1, 2])
        scheduler.cancel(handles[1])
        scheduler.cancel(ScheduledWork(id: 999))
        #expect(scheduler.pendingCount == 6)
        scheduler.cancel(handles[9])
        #expect(scheduler.pendingCount == 5)
        #expect(scheduler.runUntilIdle() == 5)
        #expect(ran == [0, 1, 2, 3, 4, 5, 7, 8])
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .seconds(9))
    }

    /// A handle names its slot: once the work ran or was dropped and the slot holds newer
    /// work, the old handle cancels nothing (nor does the placeholder id 0).
    @Test func anOldHandleCannotCancelTheWorkThatReusedItsSlot() {
        let scheduler = VirtualScheduler()
        var ran: [String] = []
        let first = scheduler.schedule(after: .seconds(1)) { ran.append("first") }
        scheduler.cancel(first)
        scheduler.advance(by: .seconds(2))
        let second = scheduler.schedule(after: .seconds(1)) { ran.append("second") }
        scheduler.cancel(first)
        scheduler.cancel(ScheduledWork(id: 0))
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(2))
        #expect(ran == ["second"])
        let third = scheduler.schedule(after: .seconds(1)) { ran.append("third") }
        scheduler.cancel(second)
        #expect(third.id > second.id)
        #expect(scheduler.runUntilIdle() == 1)
        #expect(ran == ["second", "third"])
    }

    @Test func pastDeadlinesRunNowAndTimeNeverGoesBack() {
        let scheduler = VirtualScheduler()
        scheduler.advance(to: .seconds(10))
        var at: Duration?
        scheduler.schedule(at: .seconds(3)) { at = scheduler.now }
        scheduler.runUntilIdle()
        #expect(at == .seconds(10))
    }

    @Test func manyTimersComeOutSorted() {
        let scheduler = VirtualScheduler()
        var generator = SeededGenerator(seed: 5)
        var fired: [Duration] = []
        for _ in 0 ..< 2_000 {
            scheduler.schedule(at: .milliseconds(Int64(generator.next() % 10_000))) { fired.append(scheduler.now) }
        }
        scheduler.runUntilIdle()
        #expect(fired.count == 2_000)
        #expect(fired == fired.sorted())
    }

    /// The heap against a plain model: work scheduled from inside work, cancelled at random,
    /// most of it due at a few shared instants. Every piece runs in (deadline, scheduling
    /// order), as the model's sorted list says, whatever the heap's shape at the time.
    @Test func interleavedSchedulingAndCancellingRunInDeadlineThenSchedulingOrder() {
        let scheduler = VirtualScheduler()
        var generator = SeededGenerator(seed: 39)
        var model: [(deadline: Duration, order: Int, handle: ScheduledWork)] = []
        var ran: [Int] = []
        var done: Set<Int> = []
        var order = 0
        func add(from base: Duration) {
            let deadline = base + .milliseconds(Int64(generator.next() % 4) * 10)
            let mine = order
            order += 1
            let handle = scheduler.schedule(at: deadline) {
                ran.append(mine)
                done.insert(mine)
                if mine < 3_000 { for _ in 0 ..< Int(generator.next() % 3) { add(from: scheduler.now) } }
            }
            model.append((max(deadline, scheduler.now), mine, handle))
        }
        for _ in 0 ..< 200 { add(from: .zero) }
        var cancelled: Set<Int> = []
        while scheduler.pendingCount > 0 {
            scheduler.advance(by: .milliseconds(5))
            let waiting = model.filter { !done.contains($0.order) && !cancelled.contains($0.order) }
            if let victim = waiting.randomElement(using: &generator), generator.next() % 4 == 0 {
                scheduler.cancel(victim.handle)
                cancelled.insert(victim.order)
            }
        }
        let expected = model.filter { !cancelled.contains($0.order) }
            .sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
            .map(\.order)
        #expect(ran.count > 500)
        #expect(ran == expected)
    }
}
