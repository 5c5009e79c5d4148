import Foundation
import LowbandReports
import Testing

/// What a program importing LowbandReports alone can do with a run: the CSV rows of its metrics
/// and the HTML report, without importing LowbandRunReport itself.
@Suite struct ReportsLibraryTests {
    @Test func oneImportWritesARunsRowsAndItsHTMLReport() throws {
        let latency = RunMetric(name: "push_to_visible", unit: "ms", values: [210, 190, 250, 205])
        let rows = [BenchmarkRow(suite: "run", benchmark: "edge/push", metric: latency.name, unit: latency.unit, samples: latency.values, environment: RunEnvironment(timestamp: "2026-11-24T00:00:00Z"))]
        let csv = try BenchmarkCSV.render(rows: rows)
        #expect(csv.contains("run,edge/push,push_to_visible,ms,205,"))
        let page = RunReportHTML.render(records: [])
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("This run recorded no results"))
    }
}
