import ArgumentParser
import Foundation
import LowbandAppEvents
import LowbandProfiles
import LowbandProxyCore
import LowbandReports
import LowbandScenarios
import LowbandShaper
import LowbandShell
import Synchronization

/// `lowband shell --record DIR`: the session recorder `lowband proxy --record` uses, fed with the
/// shell's link's decisions as the proxy's events (its trace goes on to trace.jsonl unchanged).
final class ShellRecording: ShaperTraceSink {
    /// The session: its clock starts when the command line is read.
    let recorder = SessionRecorder()
    private let trace: (any ShaperTraceSink)?
    /// The session's time when the link's clock started.
    private let offset = Mutex<Duration>(.zero)

    init(trace: (any ShaperTraceSink)?) {
        self.trace = trace
    }

    /// Called just before the link starts: its times are placed on the session's clock from here.
    func linkStarted() {
        let now = recorder.clock()
        offset.withLock { $0 = now }
    }

    func record(_ event: ShaperEvent) {
        trace?.record(event)
        // Each packet is enqueued, then delivered or dropped: the record keeps the outcome.
        guard event.kind != .enqueue else { return }
        // The trace's first line names the link it starts with (and its clock): not a switch.
        if event.kind == .link, event.time.nanoseconds == 0 { return }
        recorder.record(ShellEventTap.proxyEvent(event), link: "shell", offset: offset.withLock { $0 })
    }
}

extension ShellCommand {
    /// Judges and writes the session folder, as `lowband proxy --record` does, with what the
    /// shell ran: record.json (`shell`: the command, its exit status, the frames each way),
    /// report.html, verdict.txt, events.jsonl, network.jsonl, results.csv; trace.jsonl was
    /// written as the link decided. The same network again is the same command line (the API's
    /// switches are listed after it, not replayed).
    func writeRecord(_ recording: ShellRecording, to folder: String, profile loaded: NetworkProfile, status: Int32, statistics: ShellStatistics) async throws {
        let bounds: EventBounds
        do {
            bounds = try boundsOption.bounds(for: loaded)
        } catch {
            throw ValidationError("\(error)")
        }
        let session = await recording.recorder.finish(
            bounds: bounds, roundTrip: loaded.uplink.delay + loaded.downlink.delay, floor: NetworkRecord.Floor(loaded))
        // The title names the command; a long script is cut (the record keeps it whole).
        let joined = CommandWords.join(arguments).split(whereSeparator: \.isNewline).joined(separator: " ")
        let words = joined.count > 72 ? joined.prefix(71) + "…" : joined
        var header = [
            "lowband shell -- \(words) on \(loaded.name), seed \(seedOption.seed): exit status \(status), \(String(format: "%.1f", session.elapsed.seconds)) s recorded",
            "frames: \(statistics.summary)",
        ]
        if !session.played.isEmpty { header.append("faults played: " + session.played.joined(separator: "; ")) }
        var again = ["lowband", "shell", "--profile", profile, "--seed", String(seedOption.seed)]
        for bound in boundsOption.bound { again += ["--bound", bound] }
        let command = CommandWords.join(again + ["--"] + arguments)
        func lane(_ lane: ShellStatistics.Lane) -> ShellRunRecord.Lane {
            .init(offeredFrames: lane.offeredFrames, offeredBytes: lane.offeredBytes, deliveredFrames: lane.deliveredFrames, deliveredBytes: lane.deliveredBytes, dropped: lane.dropped)
        }
        let shell = ShellRunRecord(
            command: arguments, exitStatus: status, profile: loaded.name, seed: seedOption.seed, seconds: session.elapsed.seconds,
            upstream: lane(statistics.upstream), downstream: lane(statistics.downstream))
        do {
            try session.write(
                to: folder, header: header, problems: [], suite: "shell.record", benchmark: loaded.name, command: command,
                recordedWith: RunEnvironment.current().command, shell: shell)
        } catch {
            throw CommandIO.IOError(description: "--record: cannot write \(folder): \(SystemErrorText.describe(error))")
        }
        Self.log("lowband shell: recorded \(session.events.count) app events; promises: \(session.book.checks.tally); written to \(folder)/ (report.html, record.json, trace.jsonl, verdict.txt, results.csv)")
        let changed = session.timeline.marks.contains { $0.kind == "link" || $0.kind == "toxic" } || !session.played.isEmpty
        Self.log("lowband shell: same network again: \(command)" + (changed ? " (then, by hand, the switches, toxics and outages listed in \(folder)/report.html)" : ""))
    }

    /// The command's arguments, without the `--` that introduces them.
    var arguments: [String] {
        command.first == "--" ? Array(command.dropFirst()) : command
    }

    /// One line on stderr.
    static func log(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}
