import Foundation
import Synchronization

/// Follows a file an app appends its events to (JSON lines), as `tail -f` would: every complete
/// line is read into an ``AppEventLog``, stamped when it is read; a line still being written
/// waits for its newline. The file may appear after following starts.
///
/// Bounded: at most 1 MiB is read per poll, a line longer than ``AppEventReader/maximumLineBytes``
/// is skipped up to its newline and reported, and at most 100 problems are kept.
public final class AppEventFile: Sendable {
    /// The file followed.
    public let path: String
    private let log: AppEventLog
    private let state = Mutex(State())

    private struct State {
        var offset: UInt64 = 0
        var partial: [UInt8] = []
        var skipping = false
        var lines = 0
        var problems: [String] = []
    }

    /// Follows `path` into `log`.
    public init(path: String, log: AppEventLog) {
        self.path = path
        self.log = log
    }

    /// Reads what was appended since the last call. Returns how many events it took.
    @discardableResult
    public func poll() -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        let start = state.withLock { $0.offset }
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else { return 0 }
        return state.withLock { state in
            state.offset += UInt64(data.count)
            var taken = 0
            for byte in data {
                guard byte == 0x0A else {
                    if !state.skipping {
                        state.partial.append(byte)
                        if state.partial.count > AppEventReader.maximumLineBytes {
                            state.lines += 1
                            state.skipping = true
                            state.partial = []
                            note(&state, "\(path), line \(state.lines): longer than \(AppEventReader.maximumLineBytes) bytes; skipped")
                        }
                    }
                    continue
                }
                if state.skipping {
                    state.skipping = false
                    continue
                }
                state.lines += 1
                let line = String(decoding: state.partial, as: UTF8.self)
                state.partial = []
                do {
                    if let event = try AppEventReader.event(Substring(line), number: state.lines, arrival: log.now) {
                        taken += try log.append([event]).accepted
                    }
                } catch {
                    note(&state, "\(path), \(error)")
                }
            }
            return taken
        }
    }

    /// What was wrong with lines read so far (at most 100).
    public var problems: [String] { state.withLock { $0.problems } }

    /// Polls every `interval` until the task is cancelled, then once more.
    public func follow(every interval: Duration = .milliseconds(50)) async {
        while !Task.isCancelled {
            poll()
            try? await Task.sleep(for: interval)
        }
        poll()
    }

    private func note(_ state: inout State, _ problem: String) {
        if state.problems.count < 100 { state.problems.append(problem) }
    }
}
