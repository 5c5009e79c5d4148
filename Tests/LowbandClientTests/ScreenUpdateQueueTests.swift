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

    @Test func runOrEnqueueRunsAtOnceOnlyWhenTheQueueIsIdle() {
        let scheduler = VirtualScheduler()
        let queue = ScreenUpdateQueue(scheduler: scheduler, clock: ManualWorkClock())
        var log: [String] = []
        queue.runOrEnqueue("first message") {
            log.append("first@\(scheduler.now)")
            return .milliseconds(250)
        }
        #expect(log == ["first@0.0 seconds"], "an idle queue runs the update inside the call")
        #expect(queue.isBusy, "its animation holds the queue")
        queue.runOrEnqueue("second message") {
            log.append("second@\(scheduler.now)")
            return .zero
        }
        #expect(log == ["first@0.0 seconds"], "a busy queue queues it behind the animation")
        scheduler.advance(by: .milliseconds(250))
        #expect(log == ["first@0.0 seconds", "second@0.25 seconds"])
        scheduler.runUntilIdle()
        #expect(!queue.isBusy)
        queue.enqueue("page") {
            log.append("page")
            return .zero
        }
        queue.runOrEnqueue("third message") {
            log.append("third")
            return .zero
        }
        #expect(log.count == 2, "an update waiting for its turn keeps a later one behind it")
        scheduler.runUntilIdle()
        #expect(log.suffix(2) == ["page", "third"])
        #expect(queue.metrics.updates == 4)
    }
}
