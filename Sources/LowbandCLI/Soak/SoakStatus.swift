import Foundation

/// The soak's live status line on stderr: rewritten in place on a terminal, one line every ten
/// seconds otherwise.
final class SoakStatus {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var last: ContinuousClock.Instant?
    private var shown = false

    func show(_ line: String) {
        let now = ContinuousClock.now
        if !isTerminal, let last, now - last < .seconds(10) { return }
        last = now
        shown = true
        RunCommand.log(isTerminal ? "\r\u{1B}[K" + line : line, newline: !isTerminal)
    }

    /// Ends the in-place line before other output.
    func finish() {
        if isTerminal, shown { RunCommand.log("") }
        shown = false
    }
}
