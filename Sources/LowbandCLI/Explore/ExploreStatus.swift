import Foundation
import LowbandScenarios
import Synchronization

/// The live line of `lowband explore` on stderr: seeds done and failing, rate, time left.
final class ExploreStatus: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let state = Mutex<(last: ContinuousClock.Instant?, shown: Bool)>((nil, false))

    func update(_ progress: ExploreProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            let wait: Duration = isTerminal ? .milliseconds(200) : .seconds(5)
            if progress.done < progress.total, let last = state.last, now - last < wait { return false }
            state.last = now
            state.shown = true
            return true
        }
        guard due else { return }
        let seconds = progress.elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(progress.done) / seconds : 0
        let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
        let line = String(format: "explore: %d/%d seeds, %d failing, %.1f seeds/s, ETA %dm%02ds", progress.done, progress.total, progress.failed, rate, Int(left) / 60, Int(left) % 60)
        RunCommand.log(isTerminal ? "\r\u{1B}[K" + line : line, newline: !isTerminal)
    }

    /// Clears the in-place line before other output.
    func interrupt() {
        guard isTerminal else { return }
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { RunCommand.log("\r\u{1B}[K", newline: false) }
    }

    func finish() {
        if isTerminal { RunCommand.log("") }
    }
}
