/// The rows of one report, looked up by suite, benchmark and metric, for computing derived figures.
///
/// When two rows share a key, the later one is found (a report holds each key once; the reader
/// and the importer refuse duplicates).
public struct ReportRows: Sendable {
    /// The rows, in report order.
    public let rows: [BenchmarkRow]
    private let index: [BenchmarkRow.Key: BenchmarkRow]

    /// The rows of one report, indexed by key; a later row wins over an earlier one with its key.
    public init(_ rows: [BenchmarkRow]) {
        self.rows = rows
        var index: [BenchmarkRow.Key: BenchmarkRow] = [:]
        for row in rows { index[row.key] = row }
        self.index = index
    }

    /// The row of `suite`, `benchmark` and `metric`, or nil.
    public func row(_ suite: String, _ benchmark: String, _ metric: String) -> BenchmarkRow? {
        index[BenchmarkRow.Key(suite: suite, benchmark: benchmark, metric: metric)]
    }

    /// One statistic (p50 unless told) of a row, or nil when the report has no such row.
    public func value(_ suite: String, _ benchmark: String, _ metric: String, _ statistic: BenchmarkRow.Statistic = .p50) -> Double? {
        row(suite, benchmark, metric)?.value(of: statistic)
    }

    /// The benchmarks of `suite` whose last `/`-component is one of `operations`, without it:
    /// `login-reply-50/json/encode` → `login-reply-50/json`. Sorted, each once.
    public func groups(suite: String, operations: Set<String>) -> [String] {
        var groups: Set<String> = []
        for row in rows where row.suite == suite {
            guard let slash = row.benchmark.lastIndex(of: "/"),
                operations.contains(String(row.benchmark[row.benchmark.index(after: slash)...]))
            else { continue }
            groups.insert(String(row.benchmark[..<slash]))
        }
        return groups.sorted()
    }
}
