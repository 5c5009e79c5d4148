import LowbandShaper
import Testing

/// Trace files from outside: the parser refuses what the shaper could not play, with the line.
/// Inputs found by the `mahimahi-trace` fuzz target (docs/FUZZING.md).
@Suite struct MahimahiTraceBoundsTests {
    /// Fuzz finding: a 7·10^18 ms period parsed, then overflowed the shaper's nanoseconds on the
    /// first byte sent (a trap, taking the proxy down with it).
    @Test func aTimestampBeyondTheLongestPeriodIsRefusedWithItsLine() {
        #expect {
            try MahimahiTrace(text: "0\n7000000000000000000\n", file: "huge.trace")
        } throws: { error in
            let error = error as? ProfileError
            return error?.code == .invalidTrace && error?.line == 2 && error?.file == "huge.trace"
        }
        #expect(throws: ProfileError.self) { try MahimahiTrace(text: "\(MahimahiTrace.maximumMilliseconds + 1)\n", file: "t") }
    }

    /// The longest period accepted plays: bytes sent at the start and after a period are delivered.
    @Test func theLongestAcceptedPeriodRuns() throws {
        let trace = try MahimahiTrace(text: "0\n\(MahimahiTrace.maximumMilliseconds)\n", file: "long.trace")
        var link = VirtualLink(TestProfiles.symmetric(TestProfiles.link(rate: .trace(trace), delay: .milliseconds(10))))
        let id = link.open().id
        link.submit(3_000, on: id)
        link.run()
        #expect(link.delivered() == 3_000)
    }
}
