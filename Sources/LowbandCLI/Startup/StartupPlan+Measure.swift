import ArgumentParser
import Foundation
import LowbandReports
import LowbandStartup

extension StartupPlan {
    /// The measured runs: plain ones timed, then instrumented ones counted, each alternating
    /// with the baseline's when there is one; then the rows of each side.
    func measure() throws {
        do {
            for (file, option) in [(options.out, "--out"), (options.baselineOut, "--baseline-out")] {
                let folder = ((file ?? "") as NSString).deletingLastPathComponent
                if !folder.isEmpty { try OutputDirectory.prepare(folder, option: option) }
            }
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
        // The rows are the program's: its checkout's commit, Lowband's in lowband_commit. A
        // baseline's commit is not known here (it may be any build): --commit names the head's.
        let environment = RunEnvironment.current().measuring(programIn: FileManager.default.currentDirectoryPath, commit: options.commit)
        let baseEnvironment = environment.measuring(programIn: "", commit: options.baselineCommit ?? "unknown")
        let base = options.baselineCommand
        var rows: [BenchmarkRow] = []
        var baseRows: [BenchmarkRow] = []
        var text = ""
        var baseText = ""
        if measures.time, let head = timedLaunch() {
            let (samples, baseSamples) = try alternate(head, timedLaunch(baseline: base ?? ""), paired: base != nil, runs: options.runs, warmup: options.warmup) { (launch: ProgramLaunch) throws(ProgramLaunch.Failure) in
                try launch.run()
            } line: {
                StartupSummary.progressLine(index: $0, warmup: $1, runs: $2, sample: $3)
            }
            rows += StartupSummary.rows(benchmark: benchmark, samples: samples, environment: environment)
            text += "\(benchmark): \(samples.count) runs\n" + StartupSummary.lines(samples: samples, rows: rows)
            if base != nil {
                let baseTime = StartupSummary.rows(benchmark: benchmark, samples: baseSamples, environment: baseEnvironment)
                baseRows += baseTime
                baseText += "\(benchmark): \(baseSamples.count) runs\n" + StartupSummary.lines(samples: baseSamples, rows: baseTime)
            }
        }
        if measures.instrumented, let head = instrumentedLaunch(paired: base != nil) {
            // One warm-up at most: what moves a count is on-disk state (a cache of compiled
            // files) the first run writes, not a warm page cache.
            let (samples, baseSamples) = try alternate(head, instrumentedLaunch(baseline: base ?? ""), paired: base != nil, runs: options.instrumentedRuns, warmup: min(options.warmup, 1)) { (launch: InstrumentedLaunch) throws(ProgramLaunch.Failure) in
                try launch.run()
            } line: {
                StartupSummary.instrumentedProgressLine(index: $0, warmup: $1, runs: $2, sample: $3)
            }
            rows += StartupSummary.instructionRows(benchmark: benchmark, samples: samples, environment: environment)
            if text.isEmpty { text = "\(benchmark): \(samples.count) runs\n" }
            text += StartupSummary.instructionLines(samples: samples)
            warn(samples, side: "")
            if base != nil {
                baseRows += StartupSummary.instructionRows(benchmark: benchmark, samples: baseSamples, environment: baseEnvironment)
                if baseText.isEmpty { baseText = "\(benchmark): \(baseSamples.count) runs\n" }
                baseText += StartupSummary.instructionLines(samples: baseSamples)
                warn(baseSamples, side: "the baseline's ")
            }
        }
        do {
            if let baselineOut = options.baselineOut {
                try BenchmarkCSV.write(rows: baseRows, to: baselineOut)
                try CommandIO.write("baseline " + baseText + "wrote \(baselineOut)\n")
            }
            try BenchmarkCSV.write(rows: rows, to: options.out)
            try CommandIO.write(text + "wrote \(options.out)\n")
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
    }

    /// The spread warning and the notes of instrumented runs, once each.
    private func warn(_ samples: [InstrumentedLaunch.Sample], side: String) {
        if let warning = StartupSummary.spreadWarning(samples: samples) {
            CommandIO.warn(side + warning, command: Self.commandName)
        }
        for note in Set(samples.flatMap(\.notes)).sorted() {
            CommandIO.warn(side + note, command: Self.commandName)
        }
    }

    /// `warmup` then `runs` launches of `head`, each after one of `base` when `paired`: whatever
    /// the machine does meanwhile falls on both alike. The measured samples of each side.
    private func alternate<Launch, Sample>(
        _ head: Launch, _ base: Launch?, paired: Bool, runs: Int, warmup: Int,
        run: (Launch) throws(ProgramLaunch.Failure) -> Sample, line: (Int, Int, Int, Sample) -> String
    ) throws -> (head: [Sample], base: [Sample]) {
        let progress = StartupProgress()
        var samples: [Sample] = []
        var baseSamples: [Sample] = []
        for index in 0 ..< warmup + runs {
            let measured = index >= warmup
            for (which, subject) in [("the baseline's ", paired ? base : nil), ("", head)] {
                guard let subject else { continue }
                let sample: Sample
                do {
                    sample = try run(subject)
                } catch {
                    progress.finish()
                    let what = measured ? "run \(index - warmup + 1) of \(runs)" : "warm-up run \(index + 1) of \(warmup)"
                    throw CommandIO.failure("\(which)\(what): \(error.description)", command: Self.commandName)
                }
                if measured { if which.isEmpty { samples.append(sample) } else { baseSamples.append(sample) } }
                progress.show((which.isEmpty ? "" : "baseline ") + line(index, warmup, runs, sample))
            }
        }
        progress.finish()
        return (samples, baseSamples)
    }
}
