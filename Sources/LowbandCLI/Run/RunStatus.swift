import Foundation
import LowbandScenarios
import Synchronization

/// The live status line of `lowband run` on stderr: rewritten in place (carriage return) on a
/// terminal, one line every few seconds otherwise, so logs stay readable.
final class RunStatus: Sendable {
    private let isTerminal: Bool
    private let interval: Duration
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(isTerminal: Bool = isatty(STDERR_FILENO) == 1, interval: Duration = .seconds(5)) {
        self.isTerminal = isTerminal
        self.interval = interval
    }

    /// Shows `progress`; `force` shows it even when the last line is recent (a run's last one).
    func update(_ progress: RunProgress, force: Bool = false) {
        let now = ContinuousClock.now
        let due = last.withLock { last -> Bool in
            let wait = isTerminal ? Duration.milliseconds(100) : interval
            if !force, let previous = last, now - previous < wait { return false }
            last = now
            return true
        }
        guard due else { return }
        let line = Self.line(progress)
        if isTerminal {
            RunCommand.log("\r\u{1B}[K" + line, newline: false)
        } else {
            RunCommand.log(line)
        }
    }

    /// Ends the in-place line before other output.
    func finish() {
        if isTerminal { RunCommand.log("") }
    }

    static func line(_ progress: RunProgress) -> String {
        let width = 20
        let filled = Int((progress.fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let elapsed = Int(progress.elapsed / .seconds(1))
        let total = Int((progress.total / .seconds(1)).rounded(.up))
        return "[\(bar)] \(progress.profile) \(elapsed)/\(total) s  \(progress.figure)"
    }
}
