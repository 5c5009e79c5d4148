import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The course of one ``InstrumentedLaunch``: read the output until the ready line or the
/// program's exit, let it settle, end what is left, sum the counts.
final class InstrumentedRun {
    private let launch: InstrumentedLaunch
    private let dumps: CallgrindDumps
    private let processes: RunProcesses
    private let child: SpawnedProgram
    private let clock = ContinuousClock()
    private let deadline: ContinuousClock.Instant
    private var streams = [OutputLines(name: "stdout"), OutputLines(name: "stderr")]
    private var open = [true, true]
    private var line: String?
    private var notes: [String] = []

    init(launch: InstrumentedLaunch, dumps: CallgrindDumps, processes: RunProcesses, child: SpawnedProgram) {
        self.launch = launch
        self.dumps = dumps
        self.processes = processes
        self.child = child
        deadline = child.started.advanced(by: launch.timeout)
    }

    deinit {
        // Whatever way the run left, nothing of it outlives it.
        processes.signal(SIGKILL)
        child.stop(grace: .zero)
        child.closeOutputs()
    }

    func finish() throws(ProgramLaunch.Failure) -> InstrumentedLaunch.Sample {
        // Until the ready line or the program's exit.
        var status: Int32?
        while line == nil, status == nil {
            guard clock.now < deadline else { try timedOut() }
            step(for: InstrumentedLaunch.checkInterval)
            status = child.exitStatus()
        }
        if status != nil { step(for: .zero) } // its last output, written before it exited
        if line != nil {
            settle()
            endAll()
            return try sample(counting: dumps.dumps)
        }
        let exited = "\(launch.executable) \(ProgramLaunch.describe(status ?? 0))"
        let left = processes.alive()
        if !left.isEmpty {
            // A daemon: counted up to the program's exit, without it.
            dumps.collectRemaining()
            let counted = dumps.dumps
            endAll()
            let named = left.prefix(3).map { "pid \($0.pid): \($0.programCommand)" }.joined(separator: ", ") + (left.count > 3 ? ", …" : "")
            notes.append("\(exited) leaving \(left.count) process\(left.count == 1 ? "" : "es") running (\(named)): counted up to its exit, without \(left.count == 1 ? "it" : "them"); ended")
            guard status == 0 else { throw failure("\(exited) (under callgrind)") }
            return try sample(counting: counted)
        }
        endAll()
        if status != 0 {
            throw failure("\(exited) under callgrind before \(launch.marker == nil ? "it could be counted" : "printing a line matching '\(launch.pattern)'")")
        }
        if launch.marker != nil {
            throw failure("\(exited) before printing a line matching '\(launch.pattern)'")
        }
        return try sample(counting: dumps.dumps)
    }

    /// Reads output and counts for at most `duration`; notes the first line matching the marker.
    private func step(for duration: Duration) {
        let ready = child.poll(open: open, timeout: duration, also: dumps.descriptor >= 0 ? dumps.descriptor : nil)
        if ready.also { dumps.collectClosed() }
        for index in ready.outputs {
            guard let bytes = child.read(index) else {
                open[index] = false
                if let last = streams[index].finish() { see(last) }
                continue
            }
            for text in streams[index].append(bytes) { see(text) }
        }
        // No output left to wait on: poll returned at once; wait the interval out.
        if ready.outputs.isEmpty, !ready.also, !open.contains(true), duration > .zero {
            dumps.collectClosed()
            var pause = timespec(tv_sec: Int(duration.components.seconds), tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
            nanosleep(&pause, nil)
        }
    }

    private func see(_ text: String) {
        guard line == nil, let marker = launch.marker, text.contains(marker) else { return }
        line = text
    }

    /// After the ready line: on until every process of the launch waits or has exited.
    private func settle() {
        let marked = clock.now
        let limit = min(deadline, marked.advanced(by: InstrumentedLaunch.busyLimit))
        var idle = 0
        while idle < InstrumentedLaunch.idleChecks {
            guard clock.now < limit else {
                let seconds = ProgramLaunch.format(marked.duration(to: clock.now))
                notes.append("still busy \(seconds) after its ready line: ended while running, so its count depends on timing")
                return
            }
            step(for: InstrumentedLaunch.checkInterval)
            let alive = processes.alive()
            if alive.isEmpty { return }
            idle = alive.allSatisfy(\.isWaiting) ? idle + 1 : 0
        }
    }

    /// SIGTERM to every process of the launch (callgrind writes the counts of each as it
    /// terminates), SIGKILL to any still there after the grace period.
    private func endAll() {
        processes.signal(SIGTERM)
        if child.exitStatus() == nil { kill(-child.pid, SIGTERM) }
        let limit = clock.now.advanced(by: InstrumentedLaunch.stopGrace)
        while clock.now < limit, !processes.alive().isEmpty || child.exitStatus() == nil {
            step(for: InstrumentedLaunch.checkInterval)
        }
        let killed = processes.alive()
        if !killed.isEmpty {
            notes.append("\(killed.count) process\(killed.count == 1 ? "" : "es") did not end within \(ProgramLaunch.format(InstrumentedLaunch.stopGrace)) of SIGTERM and were killed: their counts are missing")
            processes.signal(SIGKILL)
        }
        child.stop(grace: .seconds(1))
        // A process valgrind could not follow (a setuid program) is still in the group.
        kill(-child.pid, SIGKILL)
        dumps.collectRemaining()
    }

    private func sample(counting counted: [CallgrindDumps.Dump]) throws(ProgramLaunch.Failure) -> InstrumentedLaunch.Sample {
        guard !counted.isEmpty else {
            throw failure("callgrind wrote no counts\(valgrindLog())")
        }
        var totals: [String: Int] = [:]
        for dump in counted {
            for (event, value) in dump.counts { totals[event, default: 0] += value }
        }
        return InstrumentedLaunch.Sample(
            instructions: totals["Ir"] ?? 0, cycles: launch.cacheSimulation ? CycleEstimate.cycles(totals) : nil,
            images: Set(counted.map { "\($0.pid) \($0.command)" }).count,
            elapsed: child.started.duration(to: clock.now), line: line, notes: notes
        )
    }

    private func timedOut() throws(ProgramLaunch.Failure) -> Never {
        let ran = ProgramLaunch.format(child.started.duration(to: clock.now))
        endAll()
        throw failure(
            "no line matching '\(launch.pattern)' within \(ProgramLaunch.format(launch.timeout)) (--timeout) under callgrind: "
                + "instrumented, the program ran \(ran), and callgrind makes a start tens of times slower; raise --timeout"
        )
    }

    private func failure(_ text: String) -> ProgramLaunch.Failure {
        ProgramLaunch.Failure(description: text + ProgramLaunch.tail(streams))
    }

    /// valgrind's own complaint, when it wrote one: `; valgrind: "…"`.
    private func valgrindLog() -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: processes.directory)) ?? []).filter { $0.hasPrefix("vg.") }.sorted()
        let lines = names.flatMap { name in
            ((try? String(contentsOfFile: processes.directory + "/" + name, encoding: .utf8)) ?? "").split(separator: "\n")
        }.map { $0.replacingOccurrences(of: #"^==\d+== "#, with: "", options: .regularExpression) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "" : "; valgrind: \"" + lines.prefix(3).joined(separator: " ") + "\""
    }
}
