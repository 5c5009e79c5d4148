package import LowbandDeterminism

/// A simulated reader who scrolls a chat up at a steady pace, waiting at the top whenever the
/// next page is not there yet (each wait is a scroll stall on the screen).
package final class ScrollingReader {
    package let screen: ChatScreenModel
    /// Rows scrolled per tick.
    package let rowsPerTick: Int
    package let tick: Duration
    /// The reader gives up after this long (a network that never comes back).
    package let patience: Duration
    package private(set) var rowsRead = 0
    package private(set) var isFinished = false
    /// Called once when the reader reaches the start of the chat, has read `limit` rows, or
    /// runs out of patience.
    package var onFinish: (() -> Void)?

    private let scheduler: any Scheduler
    private var limit = Int.max
    private var startedAt: Duration = .zero

    package init(screen: ChatScreenModel, scheduler: any Scheduler, rowsPerTick: Int = 3, tick: Duration = .milliseconds(50), patience: Duration = .seconds(600)) {
        self.screen = screen
        self.scheduler = scheduler
        self.rowsPerTick = max(1, rowsPerTick)
        self.tick = tick
        self.patience = patience
    }

    /// Starts scrolling up until the start of the chat, or until `limit` rows were read.
    package func start(readingAtMost limit: Int = .max) {
        self.limit = limit
        startedAt = scheduler.now
        scheduler.schedule(after: tick) { [weak self] in self?.step() }
    }

    private func step() {
        guard !isFinished else { return }
        let before = screen.scrollPosition
        if before > 0 {
            screen.scrollUp(by: min(rowsPerTick, limit - rowsRead))
            rowsRead += before - screen.scrollPosition
        } else if !screen.reachesStart {
            // At the top: counts a stall (once per wait) and asks for the page if nobody has.
            screen.scrollUp(by: 0)
        }
        let done = rowsRead >= limit || (screen.scrollPosition == 0 && screen.reachesStart && !screen.queue.isBusy)
        if done || scheduler.now - startedAt >= patience {
            isFinished = true
            onFinish?()
            return
        }
        scheduler.schedule(after: tick) { [weak self] in self?.step() }
    }
}
