import LowbandClient
import LowbandDeterminism
import Testing

@Suite struct ScreenUpdateQueueTests {
    @Test func anUpdateWaitsForTheAnimationBeforeIt() {
        let scheduler = VirtualScheduler()
        let queue = ScreenUpdateQueue(scheduler: scheduler, clock: ManualWorkClock())
        var list = ["b"]
        var log: [String] = []
        queue.enqueue("page at top") {
            list.insert("a", at: 0)
            log.append("top@\(scheduler.now)")
            return .milliseconds(200)
        }
        queue.enqueue("message at bottom") {
            log.append("bottom@\(scheduler.now) sees \(list)")
            list.append("c")
            return .milliseconds(250)
        }
        #expect(log.isEmpty, "updates run on their own turn, not inside enqueue")
        scheduler.advance(by: .milliseconds(199))
        #expect(log == ["top@0.0 seconds"])
        #expect(queue.isBusy)
        scheduler.advance(by: .milliseconds(1))
        #expect(log == ["top@0.0 seconds", "bottom@0.2 seconds sees [\"a\", \"b\"]"])
        scheduler.runUntilIdle()
        #expect(!queue.isBusy)
        #expect(list == ["a", "b", "c"])
        #expect(queue.metrics.updates == 2)
        #expect(queue.metrics.deepestBacklog == 1)
    }

    @Test func workOverTheFrameBudgetIsADroppedFrame() {
        let scheduler = VirtualScheduler()
        let clock = ManualWorkClock()
        let queue = ScreenUpdateQueue(scheduler: scheduler, clock: clock, frameBudget: .milliseconds(16))
        for cost in [5, 16, 17, 40] as [Int64] {
            queue.enqueue("work") {
                clock.advance(by: .milliseconds(cost))
                return .zero
            }
        }
        scheduler.runUntilIdle()
        #expect(queue.metrics.droppedFrames == 2)
        #expect(queue.metrics.longestUpdate == .milliseconds(40))
    }
}
