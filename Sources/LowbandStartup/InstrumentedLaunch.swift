import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One launch of a program under valgrind's callgrind, counting the instructions it and every
/// process it starts execute from launch to its ready line, or to its exit.
///
/// The program runs as `setarch -R valgrind --tool=callgrind --trace-children=yes …`: address
/// space randomisation off for it and its children (addresses reach hash tables and allocators,
/// and moved counts by ±0.1 % here), every child followed through wrappers (`sh -c`, `env`, a
/// version manager's shims) and counted, including a wrapper's work before it execs the next
/// program (``CallgrindDumps``).
///
/// How the launch ends:
/// - **the ready line** (a line matching the marker): the program may still be finishing what it
///   was doing when it printed it (a buffered line is often written as the program exits), and
///   a signal landing in the middle would cut the count at a different instruction each run. So
///   the launch goes on until every process of it is waiting (no thread running or runnable
///   for 100 ms: a server in `accept`, a program in `sleep`) or has exited, then SIGTERM, which
///   a waiting program takes at the same instruction every time; callgrind writes its counts
///   as it terminates. A program still busy 10 s after its ready line is ended anyway, and the
///   sample says its count depends on timing.
/// - **its exit** without the line: counted to the exit when no marker was asked for; an error
///   when one was. A program that exits leaving processes behind (a daemon it forked) is counted
///   up to its exit, without them; they are ended, and the sample says so.
package struct InstrumentedLaunch {
    /// What one instrumented launch counted.
    package struct Sample: Sendable, Hashable {
        /// Instructions executed by every process image of the launch (callgrind's `Ir`).
        package var instructions: Int
        /// The cycle estimate from the cache simulation (``CycleEstimate``), when it ran.
        package var cycles: Int?
        /// The process images counted (a process that execs is two).
        package var images: Int
        /// From the spawn to the last count written: how long the launch took under valgrind.
        package var elapsed: Duration
        /// The ready line, or nil when the launch was counted to the program's exit.
        package var line: String?
        /// What the user should know about this launch (processes left behind, a count that
        /// depends on timing).
        package var notes: [String]
    }

    /// valgrind and setarch, where this machine has them.
    package struct Tools: Sendable, Hashable {
        package var valgrind: String
        package var setarch: String
        /// binutils' `strip`, where installed (``CountedRegions`` runs a copy without DWARF).
        package var strip: String?

        /// The tools on `path` (a `PATH` value); nil when valgrind is not installed.
        package static func locate(path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") -> Tools? {
            func find(_ name: String) -> String? {
                path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
            }
            guard let valgrind = find("valgrind") else { return nil }
            return Tools(valgrind: valgrind, setarch: find("setarch") ?? "/usr/bin/setarch", strip: find("strip"))
        }

        /// The one line that says how to get valgrind.
        package static let installHint = "valgrind is not installed; install it with: sudo apt-get install -y valgrind"
    }

    static let idleChecks = 4
    static let checkInterval: Duration = .milliseconds(25)
    static let busyLimit: Duration = .seconds(10)
    /// Writing the counts of a large program takes a while under load.
    static let stopGrace: Duration = .seconds(30)

    let tools: Tools
    let executable: String
    let arguments: [String]
    let environment: [String]
    let marker: Regex<AnyRegexOutput>?
    let pattern: String
    let timeout: Duration
    let cacheSimulation: Bool

    /// A launch of `executable` with `arguments` in `environment` (`NAME=value` entries), ended
    /// at the first line matching `marker` (written as `pattern`), or counted to its exit when
    /// `marker` is nil; at most `timeout`. `cacheSimulation` adds the cycle estimate.
    package init(
        tools: Tools, executable: String, arguments: [String], environment: [String],
        marker: Regex<AnyRegexOutput>?, pattern: String, timeout: Duration, cacheSimulation: Bool
    ) {
        self.tools = tools
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.marker = marker
        self.pattern = pattern
        self.timeout = timeout
        self.cacheSimulation = cacheSimulation
    }

    /// The arguments of `setarch` that run the program under callgrind, writing into `directory`.
    func commandLine(directory: String) -> [String] {
        [
            "-R", tools.valgrind, "--tool=callgrind", "--trace-children=yes",
            "--dump-before=execve", "--dump-before=__execve",
            "--cache-sim=\(cacheSimulation ? "yes" : "no")",
            "--callgrind-out-file=\(directory)/cg.%p", "--log-file=\(directory)/vg.%p.log",
            executable,
        ] + arguments
    }

    /// Launches the program under callgrind, ends it as described above, sums the counts.
    package func run() throws(ProgramLaunch.Failure) -> Sample {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dumps = CallgrindDumps(directory: directory)
        let run = InstrumentedRun(
            launch: self, dumps: dumps, processes: RunProcesses(directory: directory), child: try spawn(directory: directory)
        )
        return try run.finish()
    }

    private func spawn(directory: String) throws(ProgramLaunch.Failure) -> SpawnedProgram {
        do {
            return try SpawnedProgram(executable: tools.setarch, arguments: commandLine(directory: directory), environment: environment)
        } catch {
            throw ProgramLaunch.Failure(description: "cannot start \(tools.setarch) (for valgrind): \(error.description)")
        }
    }

    static func makeDirectory() throws(ProgramLaunch.Failure) -> String {
        var template = Array((NSTemporaryDirectory() + "/lowband-callgrind-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let made else {
            throw ProgramLaunch.Failure(description: "cannot make a directory for callgrind's counts: \(String(cString: strerror(errno)))")
        }
        return made
    }
}
