import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The live processes of one instrumented launch, found by the log files valgrind opens as each
/// of them starts (`--log-file=DIR/vg.%p.log`, opened again under its own pid in a forked child):
/// every process of the launch, whatever its process group or session — a daemon that left
/// with `setsid` too — and nothing else, without marking the program's environment (which would
/// move its counts).
struct RunProcesses {
    /// One process as /proc shows it.
    struct Process: Hashable {
        var pid: pid_t
        /// `R` running, `S` sleeping, `D` disk wait, `T` stopped…, one per thread.
        var threadStates: [Character]
        /// Its command line as valgrind runs it, spaces between the arguments.
        var command: String

        /// No thread of it is running or waiting for a CPU.
        var isWaiting: Bool { !threadStates.contains("R") }

        /// The program's own command line, without valgrind's launcher and options.
        var programCommand: String {
            let words = command.split(separator: " ")
            guard let first = words.firstIndex(where: { !$0.hasPrefix("-") && !$0.contains("valgrind") && !$0.contains("callgrind") }) else { return command }
            return words[first...].joined(separator: " ")
        }
    }

    /// The directory valgrind writes its logs and counts into.
    let directory: String

    /// The live (not zombie) processes of the launch, by pid.
    func alive() -> [Process] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let pids = names.compactMap { name -> pid_t? in
            guard name.hasPrefix("vg."), name.hasSuffix(".log") else { return nil }
            return pid_t(name.dropFirst(3).dropLast(4))
        }
        return pids.sorted().compactMap(Self.process)
    }

    /// Sends `signal` to every live process of the launch.
    func signal(_ signal: Int32) {
        for process in alive() { kill(process.pid, signal) }
    }

    /// The process `pid` if it lives and is a valgrind's (not a later process with a reused pid).
    private static func process(_ pid: pid_t) -> Process? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
              executable.contains("valgrind") || executable.contains("grind-") else { return nil }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let states = tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)).flatMap(state)
        }
        guard !states.isEmpty, !states.allSatisfy({ $0 == "Z" || $0 == "X" }) else { return nil }
        let raw = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        let command = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        return Process(pid: pid, threadStates: states, command: command)
    }

    /// The state in `pid (comm) S ppid …`: the command may hold spaces and parentheses, so it
    /// is read after the last `)`.
    private static func state(_ text: String) -> Character? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first?.first
    }
}
