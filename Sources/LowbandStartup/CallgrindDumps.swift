import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The counts callgrind writes for one launch, read as each file is closed.
///
/// Every process of the launch writes `DIR/cg.<pid>` when it ends, and `DIR/cg.<pid>.<n>` each
/// time it calls `execve` (`--dump-before=execve`): callgrind keeps no counts across an exec, so
/// without those dumps a wrapper's work (`sh -c`, `env`, a version manager's shim) before it
/// execs the program would be lost. The image after the exec has the same pid and numbers its
/// dumps from 1 again, overwriting the wrapper's files; so each file is read (and removed) when
/// inotify says it was closed, long before the next image, which valgrind has to start first,
/// can write its own.
package final class CallgrindDumps {
    /// One dump: a process image's counts since its previous dump.
    package struct Dump: Hashable, Sendable {
        package var pid: Int32
        package var command: String
        /// Event name (`Ir`, `I1mr`, …) to count.
        package var counts: [String: Int]
    }

    let directory: String
    /// The inotify descriptor, readable when a file was closed; -1 without inotify.
    private(set) var descriptor: Int32
    private(set) var dumps: [Dump] = []
    /// Files that were closed but held no totals (a dump cut short), by name.
    private(set) var unreadable: [String] = []

    init(directory: String) {
        self.directory = directory
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if descriptor >= 0, inotify_add_watch(descriptor, directory, UInt32(IN_CLOSE_WRITE)) < 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads every file inotify reported closed since the last call.
    func collectClosed() {
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var names: [String] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
                let name = buffer[(offset + 16) ..< min(count, offset + 16 + length)].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
                offset += 16 + length
            }
        }
        for name in names where name.hasPrefix("cg.") { take(name) }
    }

    /// Reads every dump file still in the directory (the final ones, once all processes ended).
    func collectRemaining() {
        collectClosed()
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("cg.") }.sorted()
        for name in names { take(name) }
    }

    private func take(_ name: String) {
        let path = directory + "/" + name
        // Callgrind creates its file empty as a process starts, to see that it can write there.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty else { return }
        unlink(path)
        if let dump = Self.parse(text) {
            dumps.append(dump)
        } else {
            unreadable.append(name)
        }
    }

    /// The `pid:`, `cmd:`, `events:` and `totals:` (or `summary:`) lines of a callgrind file.
    package static func parse(_ text: String) -> Dump? {
        var pid: Int32 = 0
        var command = ""
        var events: [String] = []
        var totals: [Int]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("pid: ") {
                pid = Int32(line.dropFirst(5)) ?? 0
            } else if line.hasPrefix("cmd: ") {
                command = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("events: ") {
                events = line.dropFirst(8).split(separator: " ").map(String.init)
            } else if line.hasPrefix("totals: ") || (totals == nil && line.hasPrefix("summary: ")) {
                totals = line.split(separator: " ").dropFirst().compactMap { Int($0) }
            }
        }
        guard let totals, !events.isEmpty, totals.count <= events.count else { return nil }
        var counts: [String: Int] = [:]
        for (event, value) in zip(events, totals) { counts[event] = value }
        // Events a file omits at the end are zero.
        for event in events.dropFirst(totals.count) { counts[event] = 0 }
        return Dump(pid: pid, command: command, counts: counts)
    }
}
