import LowbandProcess
import LowbandReports
import LowbandStartup
import Testing

/// `lowband startup` as a library: a real child process timed from its launch to the first line
/// that matches the marker, then stopped; a launch that never shows it fails in words.
@Suite struct ProgramLaunchTests {
    private func launch(_ script: String, until pattern: String, timeout: Duration = .seconds(10)) throws -> ProgramLaunch {
        ProgramLaunch(
            executable: try ExecutableSearch.resolve("sh"), arguments: ["-c", script],
            marker: try Regex(pattern), pattern: pattern, timeout: timeout)
    }

    @Test func theFirstMatchingLineOnEitherStreamEndsTheLaunch() throws {
        let sample = try launch("echo booting; echo 'listening on 8080' >&2; sleep 30", until: "listening on").run()
        #expect(sample.line == "listening on 8080")
        #expect(sample.timeToMarker > .zero && sample.timeToMarker < .seconds(30), "the program was stopped at the marker, not waited for")
    }

    @Test func aProgramThatNeverShowsTheMarkerFailsWithItsLastLines() throws {
        let launch = try launch("echo hi; echo there >&2; sleep 30", until: "never", timeout: .milliseconds(300))
        do {
            _ = try launch.run()
            Issue.record("a launch without its marker gave a sample")
        } catch {
            #expect(error.description.contains("no line matching 'never'"), "\(error.description)")
            #expect(error.description.contains("hi") && error.description.contains("there"), "\(error.description)")
        }
    }

    @Test func programsAreFoundAsAShellFindsThem() throws {
        #expect(try ExecutableSearch.resolve("sh").hasSuffix("/sh"))
        #expect(throws: ExecutableSearch.NotFound.self) { try ExecutableSearch.resolve("no-such-program-\(UInt32.random(in: 0 ... .max))") }
        #expect(throws: ExecutableSearch.NotFound.self) { try ExecutableSearch.resolve("/no/such/file") }
    }

    @Test func rowsSummariseTheMeasuredRunsByNearestRank() {
        let samples = [30, 10, 20, 40].map { ProgramLaunch.Sample(timeToMarker: .milliseconds($0), peakResidentBytes: 1_000_000, line: "ready") }
        let rows = StartupSummary.rows(benchmark: "server", samples: samples, environment: RunEnvironment(timestamp: "2026-01-01T00:00:00Z"))
        #expect(rows.map(\.metric) == ["time_to_marker", "peak_rss_at_marker"])
        #expect(rows[0].p50 == 20 && rows[0].min == 10 && rows[0].max == 40 && rows[0].samples == 4)
    }
}
