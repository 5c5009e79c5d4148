import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A program run to its exit under valgrind's callgrind, counting only inside calls of one
/// function: each call's instructions and allocations, one count per call, in call order.
///
/// The program runs as `setarch -R valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=F --dump-after=F …`: nothing is counted until F is entered, everything F
/// and what it calls execute is, and leaving F writes a dump (`cg.out.N`) and starts the next
/// count from zero. Address randomisation is off, so allocators and hash tables see the same
/// addresses every run: the same build on the same input counts the same, to the instruction.
/// An allocation is a call of `malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc`,
/// `memalign`, `valloc` or `pvalloc` (glibc's `realloc` of no block calls `malloc`: two).
///
/// Only the program itself is counted (no `--trace-children`): the function must be in it.
/// valgrind 3.19 cannot read the DWARF of a Swift 6.3 binary ("Possibly corrupted debuginfo
/// file. I can't recover"), so where `strip` is installed a copy without debug information
/// (`strip -g`: the symbols stay) is run from the run's temporary directory, whose path has the
/// same length every run.
package struct CountedRegions {
    /// What one call of the function executed.
    package struct Count: Sendable, Hashable {
        /// Instructions (callgrind's `Ir`), the function's own and its callees'.
        package var instructions: Int
        /// Calls to the allocator.
        package var allocations: Int

        package init(instructions: Int, allocations: Int) {
            self.instructions = instructions
            self.allocations = allocations
        }
    }

    /// A run's counts and what the program printed.
    package struct Result: Sendable {
        /// One per call of the function, in order.
        package var counts: [Count]
        /// The program's stdout, line by line.
        package var lines: [String]
        /// From the spawn to the counts read.
        package var elapsed: Duration
    }

    /// The allocator's entry points, as callgrind names them (a versioned name's `@…` dropped).
    static let allocators: Set<String> = [
        "malloc", "calloc", "realloc", "reallocarray", "posix_memalign", "aligned_alloc", "memalign", "valloc", "pvalloc",
        "__libc_malloc", "__libc_calloc", "__libc_realloc", "__libc_memalign", "__posix_memalign",
    ]

    let tools: InstrumentedLaunch.Tools
    let function: String
    let executable: String
    let arguments: [String]
    let environment: [String]
    let timeout: Duration

    /// `executable` with `arguments` in `environment` (`NAME=value` entries), counted inside
    /// `function` (a symbol of the executable), ended after `timeout`.
    package init(tools: InstrumentedLaunch.Tools, function: String, executable: String, arguments: [String], environment: [String], timeout: Duration) {
        self.tools = tools
        self.function = function
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.timeout = timeout
    }

    /// The arguments of `setarch` that run `program` (the executable or its copy) under
    /// callgrind, writing into `directory`.
    func commandLine(directory: String, program: String) -> [String] {
        [
            "-R", tools.valgrind, "--tool=callgrind", "--collect-atstart=no",
            "--toggle-collect=\(function)", "--dump-after=\(function)",
            "--dump-instr=yes", "--dump-line=no", "--compress-strings=no", "--compress-pos=no",
            "--callgrind-out-file=\(directory)/cg.out", "--log-file=\(directory)/vg.log",
            program,
        ] + arguments
    }

    /// Runs the program to its exit and reads every call's counts.
    ///
    /// - Throws: ``ProgramLaunch/Failure`` when the program cannot start, exits with a status
    ///   other than 0, runs past the timeout, or callgrind wrote a dump it cannot read.
    package func run() throws(ProgramLaunch.Failure) -> Result {
        let directory = try InstrumentedLaunch.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let program = try withoutDebugInformation(into: directory)
        let child: SpawnedProgram
        do {
            child = try SpawnedProgram(executable: tools.setarch, arguments: commandLine(directory: directory, program: program), environment: environment)
        } catch {
            throw ProgramLaunch.Failure(description: "cannot start \(tools.setarch) (for valgrind): \(error.description)")
        }
        defer { child.closeOutputs() }
        let clock = ContinuousClock()
        let deadline = child.started.advanced(by: timeout)
        var streams = [OutputLines(name: "stdout"), OutputLines(name: "stderr")]
        var lines: [String] = []
        var open = [true, true]
        while open.contains(true) {
            guard clock.now < deadline else {
                child.stop()
                throw ProgramLaunch.Failure(description: "\(executable) ran past \(ProgramLaunch.format(timeout)) under callgrind" + ProgramLaunch.tail(streams))
            }
            for index in child.poll(open: open, timeout: .milliseconds(100)) {
                guard let bytes = child.read(index) else {
                    open[index] = false
                    if let last = streams[index].finish(), index == 0 { lines.append(last) }
                    continue
                }
                let complete = streams[index].append(bytes)
                if index == 0 { lines += complete }
            }
        }
        let status = child.waitForExit(until: deadline)
        child.stop()
        guard status == 0 else {
            let ending = status.map(ProgramLaunch.describe) ?? "closed its output and kept running"
            throw ProgramLaunch.Failure(description: "\(executable) \(ending) under callgrind" + ProgramLaunch.tail(streams) + Self.valgrindLog(directory))
        }
        return Result(counts: try Self.readDumps(directory), lines: lines, elapsed: child.started.duration(to: clock.now))
    }

    /// A copy of the executable without debug information in `directory`, or the executable
    /// itself when `strip` is not installed.
    func withoutDebugInformation(into directory: String) throws(ProgramLaunch.Failure) -> String {
        guard let strip = tools.strip else { return executable }
        let copy = directory + "/" + (executable as NSString).lastPathComponent
        do {
            let run = try SpawnedProgram(executable: strip, arguments: ["-g", "-o", copy, executable], environment: environment)
            defer { run.closeOutputs() }
            var open = [true, true]
            while open.contains(true) {
                for index in run.poll(open: open, timeout: .seconds(1)) where run.read(index) == nil { open[index] = false }
            }
            let status = run.waitForExit(until: ContinuousClock().now.advanced(by: .seconds(60)))
            guard status == 0 else {
                throw ProgramLaunch.Failure(description: "strip -g \(executable) \(status.map(ProgramLaunch.describe) ?? "did not end")")
            }
        } catch let failure as ProgramLaunch.Failure {
            throw failure
        } catch {
            throw ProgramLaunch.Failure(description: "cannot start \(strip): \(error)")
        }
        return copy
    }

    /// `cg.out.1`, `cg.out.2`, … in order (the final `cg.out`, written at exit outside any call,
    /// left out).
    static func readDumps(_ directory: String) throws(ProgramLaunch.Failure) -> [Count] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap { name -> (Int, String)? in
            guard name.hasPrefix("cg.out."), let number = Int(name.dropFirst(7)) else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
        var counts: [Count] = []
        for (_, name) in names {
            guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8), let count = parse(text) else {
                throw ProgramLaunch.Failure(description: "callgrind's dump \(name) has no totals")
            }
            counts.append(count)
        }
        return counts
    }

    /// The instructions (`totals:` or `summary:`) of a callgrind profile written with
    /// `--dump-instr=yes --dump-line=no --compress-pos=no`, and its allocations: how often the
    /// first instruction of each of ``allocators`` ran, its entry (the lowest address of the
    /// function that ran). Not callgrind's `calls=` counts: those go on counting calls made
    /// while collection is off, between the regions. Names may be compressed (`(3) malloc`,
    /// then `(3)`) or not.
    package static func parse(_ text: String) -> Count? {
        var names: [Substring: Substring] = [:]
        var function: Substring = ""
        var afterCall = false
        var instructions: Int?
        /// The column of `Ir` among the events.
        var ir = 0
        /// Per allocator, its lowest address that ran and how often.
        var entries: [Substring: (address: UInt64, count: Int)] = [:]
        func name(_ value: Substring) -> Substring {
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return value }
            let id = value[...close]
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { names[id] = rest }
            return names[id] ?? value
        }
        func bare(_ name: Substring) -> Substring {
            name.prefix { $0 != "@" && $0 != "'" }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("0x") {
                // A cost line: the instruction's address, then the events; or, just after a
                // `calls=` line, the call's inclusive cost at the call site.
                defer { afterCall = false }
                guard !afterCall, allocators.contains(String(function)) else { continue }
                let fields = line.split(separator: " ")
                guard let address = UInt64(fields[0].dropFirst(2), radix: 16), fields.count > 1 + ir, let count = Int(fields[1 + ir]) else { continue }
                if let known = entries[function], known.address < address { continue }
                if let known = entries[function], known.address == address {
                    entries[function] = (address, known.count + count)
                } else {
                    entries[function] = (address, count)
                }
            } else if line.hasPrefix("fn=") {
                function = bare(name(line.dropFirst(3)))
            } else if line.hasPrefix("cfn=") {
                _ = name(line.dropFirst(4))
            } else if line.hasPrefix("calls=") {
                afterCall = true
            } else if line.hasPrefix("events: ") {
                ir = line.dropFirst(8).split(separator: " ").firstIndex(of: "Ir") ?? 0
            } else if line.hasPrefix("totals: ") || (instructions == nil && line.hasPrefix("summary: ")) {
                let values = line.split(separator: " ").dropFirst()
                if ir < values.count { instructions = Int(values[values.index(values.startIndex, offsetBy: ir)]) }
            }
        }
        return instructions.map { Count(instructions: $0, allocations: entries.values.reduce(0) { $0 + $1.count }) }
    }

    /// valgrind's last words, when it wrote any: `; valgrind: "…"` (a signal that ended the
    /// program, its own failure).
    static func valgrindLog(_ directory: String) -> String {
        let text = (try? String(contentsOfFile: directory + "/vg.log", encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map { $0.replacingOccurrences(of: #"^==\d+== "#, with: "", options: .regularExpression) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "" : "; valgrind: \"" + lines.suffix(3).joined(separator: " ") + "\""
    }
}
