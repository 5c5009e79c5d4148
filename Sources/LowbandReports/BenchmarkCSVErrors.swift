/// Every problem found in one benchmark CSV file, in line order: the first ``limit`` in full,
/// the rest only counted, so a file of nonsense cannot fill memory with messages.
public struct BenchmarkCSVErrors: Error, Sendable, CustomStringConvertible {
    /// How many errors are kept in full; a fixed file usually shows its pattern in fewer.
    public static let limit = 50

    /// The first ``limit`` errors, in the order they were found (line order).
    public private(set) var listed: [BenchmarkCSVError] = []
    /// How many more errors were found beyond ``listed``.
    public private(set) var unlisted = 0

    /// No errors.
    package init() {}

    /// Every error found, listed or not.
    public var count: Int { listed.count + unlisted }

    /// True when no error was found.
    public var isEmpty: Bool { listed.isEmpty }

    /// Records `error`: kept while fewer than ``limit`` are, else counted.
    public mutating func append(_ error: BenchmarkCSVError) {
        if listed.count < Self.limit {
            listed.append(error)
        } else {
            unlisted += 1
        }
    }

    /// `first` and `second`, each in line order, as one list in line order (`first` before
    /// `second` on the same line). The listed errors of each are the earliest of their kind, so
    /// the earliest ``limit`` of both are among them.
    static func merged(_ first: BenchmarkCSVErrors, _ second: BenchmarkCSVErrors) -> BenchmarkCSVErrors {
        let all = (first.listed.map { (0, $0) } + second.listed.map { (1, $0) })
            .enumerated()
            .sorted { ($0.element.1.line ?? 0, $0.element.0, $0.offset) < ($1.element.1.line ?? 0, $1.element.0, $1.offset) }
            .map(\.element.1)
        var result = BenchmarkCSVErrors()
        result.listed = Array(all.prefix(limit))
        result.unlisted = all.count - result.listed.count + first.unlisted + second.unlisted
        return result
    }

    /// One line per listed error (`file:line: message`), then `file: and N more errors` when some
    /// were only counted.
    public var lines: [String] {
        var lines = listed.map(\.description)
        if unlisted > 0, let file = listed.first?.file {
            lines.append("\(file): and \(unlisted) more error\(unlisted == 1 ? "" : "s")")
        }
        return lines
    }

    public var description: String { lines.joined(separator: "\n") }
}
