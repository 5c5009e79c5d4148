import Foundation

/// Reads the result line of `lz4 -b` (lz4 1.9.x, `programs/bench.c`).
///
/// Two layouts exist. With `-q` (display level 1) bench.c prints one summary line,
/// `-1      43357 (2.306)  1294.68 MB/s  3593.6 MB/s  file`, preceded by
/// `bench 1.9.4 : input 100000 bytes, 1 seconds, 0 KB blocks`. At the default level it redraws
/// a progress line with `\r` after every timed loop, the last one being
/// ` |-file   :    100000 ->     43357 (2.306),1296.1 MB/s ,2905.9 MB/s\r 1#`; speeds only
/// improve from one redraw to the next (bench.c keeps the fastest loop), so the last complete
/// line is the result. Both are accepted; the last result found wins.
public enum LZ4BenchOutput {
    /// One parsed result line.
    public struct Line: Sendable, Hashable {
        /// The `-b#` level, when the line names it (quiet layout only).
        public var level: Int?
        /// The input size, when the output names it.
        public var inputBytes: Int?
        public var report: LZ4BenchReport
    }

    /// The last result line of `text`.
    ///
    /// - Throws: `CompressionBenchError` with code `unparsableOutput`, quoting the output.
    public static func parse(_ text: String) throws(CompressionBenchError) -> Line {
        var found: Line?
        var headerInput: Int?
        for rawSegment in text.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
            let segment = String(rawSegment)
            if let input = headerInputBytes(segment) { headerInput = input }
            if let line = quietLine(segment) ?? progressLine(segment) { found = line }
        }
        guard var line = found else {
            let quoted = text.replacingOccurrences(of: "\r", with: "\\r").suffix(400)
            throw CompressionBenchError(
                .unparsableOutput,
                "no `lz4 -b` result line (`… -> SIZE (RATIO), X MB/s , Y MB/s` or `-L SIZE (RATIO) X MB/s Y MB/s`) in: \(quoted)"
            )
        }
        if line.inputBytes == nil { line.inputBytes = headerInput }
        return line
    }

    /// `bench 1.9.4 : input 100000 bytes, 1 seconds, 0 KB blocks` → 100000.
    private static func headerInputBytes(_ segment: String) -> Int? {
        let words = tokens(segment)
        guard words.first == "bench", let index = words.firstIndex(of: "input"), index + 2 < words.count,
            words[index + 2].hasPrefix("bytes")
        else { return nil }
        return Int(words[index + 1])
    }

    /// `-1      43357 (2.306)  1294.68 MB/s  3593.6 MB/s  name`.
    private static func quietLine(_ segment: String) -> Line? {
        let words = tokens(segment)
        guard words.count >= 7, words[0].hasPrefix("-"), let level = Int(words[0].dropFirst()),
            let compressed = Int(words[1]), words[2].hasPrefix("("), words[2].hasSuffix(")"),
            let compress = Double(words[3]), words[4] == "MB/s",
            let decompress = Double(words[5]), words[6] == "MB/s"
        else { return nil }
        return Line(
            level: level, inputBytes: nil,
            report: LZ4BenchReport(compressedBytes: compressed, compressMBps: compress, decompressMBps: decompress)
        )
    }

    /// ` |-name   :    100000 ->     43357 (2.306),1296.1 MB/s ,2905.9 MB/s` (the file name may
    /// contain anything, so the line is read from the last ` : ` on).
    private static func progressLine(_ segment: String) -> Line? {
        guard let colon = segment.range(of: ":", options: .backwards) else { return nil }
        // "100000 ->  43357 (2.306),1296.1 MB/s ,2905.9 MB/s" with separators made spaces.
        let rest = String(segment[colon.upperBound...])
            .replacingOccurrences(of: ",", with: " ")
            .replacingOccurrences(of: "->", with: " -> ")
        let words = tokens(rest)
        guard words.count == 8, let input = Int(words[0]), words[1] == "->", let compressed = Int(words[2]),
            words[3].hasPrefix("("), let compress = Double(words[4]), words[5] == "MB/s",
            let decompress = Double(words[6]), words[7] == "MB/s"
        else { return nil }
        return Line(
            level: nil, inputBytes: input,
            report: LZ4BenchReport(compressedBytes: compressed, compressMBps: compress, decompressMBps: decompress)
        )
    }

    private static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }
}
