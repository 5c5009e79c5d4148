/// Compares two traces decision by decision and names the first place they part.
package struct TraceDiff {
    /// Where two traces first differ.
    package struct Divergence: Equatable {
        /// The decision's position, from 1 (blank lines are not decisions).
        package var decision: Int
        /// The line in each file; nil where that file had ended.
        package var lineA: Int?
        package var lineB: Int?
        package var textA: String?
        package var textB: String?
        /// The first field that differs; nil when one trace ended before the other.
        package var field: String?
    }

    package enum Outcome: Equatable {
        case identical(decisions: Int)
        case diverged(Divergence)
    }

    /// Reads both traces in step until they differ or both end.
    ///
    /// - Throws: ``TraceDiffError`` naming the file and line of a line that is not a JSON
    ///   object, or a file that cannot be read.
    package static func compare(_ a: TraceLineReader, _ b: TraceLineReader, keepTime: Bool) throws(TraceDiffError) -> Outcome {
        var decisions = 0
        while true {
            let lineA = try a.next()
            let lineB = try b.next()
            let decisionA = try lineA.map { line throws(TraceDiffError) in try parse(line, of: a, keepTime: keepTime) }
            let decisionB = try lineB.map { line throws(TraceDiffError) in try parse(line, of: b, keepTime: keepTime) }
            switch (decisionA, decisionB) {
            case (nil, nil):
                return .identical(decisions: decisions)
            case let (left?, right?):
                decisions += 1
                guard let difference = left.firstDifference(from: right) else { continue }
                return .diverged(Divergence(
                    decision: decisions, lineA: a.lineNumber, lineB: b.lineNumber,
                    textA: lineA.map(text), textB: lineB.map(text), field: difference.key))
            default:
                return .diverged(Divergence(
                    decision: decisions + 1, lineA: lineA == nil ? nil : a.lineNumber, lineB: lineB == nil ? nil : b.lineNumber,
                    textA: lineA.map(text), textB: lineB.map(text), field: nil))
            }
        }
    }

    /// What the command prints for `outcome`, naming the files `nameA` and `nameB`.
    package static func report(_ outcome: Outcome, _ nameA: String, _ nameB: String) -> String {
        switch outcome {
        case .identical(let decisions):
            return "identical: \(decisions) decisions\n"
        case .diverged(let divergence):
            var text = "first divergence at decision \(divergence.decision): "
            switch (divergence.lineA, divergence.lineB, divergence.field) {
            case let (lineA?, lineB?, field?):
                text += "\(nameA) line \(lineA), \(nameB) line \(lineB): field '\(field)' differs\n"
            case let (nil, lineB?, _):
                text += "\(nameA) ends after \(divergence.decision - 1) decisions; \(nameB) goes on at line \(lineB)\n"
            case let (lineA?, nil, _):
                text += "\(nameB) ends after \(divergence.decision - 1) decisions; \(nameA) goes on at line \(lineA)\n"
            default:
                text += "\n"
            }
            if let lineA = divergence.lineA, let line = divergence.textA { text += "\(nameA):\(lineA): \(line)\n" }
            if let lineB = divergence.lineB, let line = divergence.textB { text += "\(nameB):\(lineB): \(line)\n" }
            return text
        }
    }

    private static func parse(_ line: [UInt8], of reader: TraceLineReader, keepTime: Bool) throws(TraceDiffError) -> TraceDecision {
        do {
            return try TraceDecision(line: line, keepTime: keepTime)
        } catch {
            throw TraceDiffError("\(reader.path):\(reader.lineNumber): \(error.description)")
        }
    }

    private static func text(_ line: [UInt8]) -> String {
        String(decoding: line, as: UTF8.self)
    }
}
