import Foundation
import LowbandReports
import Testing

/// What a program importing LowbandReports alone can do with its own samples: rows whose
/// percentiles are nearest-rank, as `lowband run`'s are, rendered in the one CSV schema.
@Suite struct ReportsLibraryTests {
    @Test func samplesBecomeARowWithNearestRankPercentiles() throws {
        let samples: [Double] = [210, 190, 250, 205]
        let rows = [BenchmarkRow(suite: "run", benchmark: "edge/push", metric: "push_to_visible", unit: "ms", samples: samples, environment: RunEnvironment(timestamp: "2026-11-24T00:00:00Z"))]
        #expect(rows[0].p50 == 205 && rows[0].p90 == 250 && rows[0].min == 190 && rows[0].samples == 4)
        let csv = try BenchmarkCSV.render(rows: rows)
        #expect(csv.contains("run,edge/push,push_to_visible,ms,205,250,250,190,250,4,"))
    }
}
