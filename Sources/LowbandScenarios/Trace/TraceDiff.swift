import LowbandMessagePack

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

    /// Reads both traces in step until they differ or both end. Decisions taken at one instant
    /// (the same `t_ns`) are compared in a canonical order, not in the order they were written:
    /// two runs of one seed that logged an outage's start and a delivery of the same nanosecond
    /// the other way round took the same decisions.
    ///
    /// - Throws: ``TraceDiffError`` naming the file and line of a line that is not a JSON
    ///   object, or a file that cannot be read.
    package static func compare(_ a: TraceLineReader, _ b: TraceLineReader, keepTime: Bool) throws(TraceDiffError) -> Outcome {
        let left = InstantOrder(a, keepTime: keepTime)
        let right = InstantOrder(b, keepTime: keepTime)
        var decisions = 0
        while true {
            let readA = try left.next()
            let readB = try right.next()
            switch (readA, readB) {
            case (nil, nil):
                return .identical(decisions: decisions)
            case let (x?, y?):
                decisions += 1
                guard let difference = x.decision.firstDifference(from: y.decision) else { continue }
                return .diverged(Divergence(
                    decision: decisions, lineA: x.line, lineB: y.line, textA: text(x.text), textB: text(y.text), field: difference.key))
            default:
                return .diverged(Divergence(
                    decision: decisions + 1, lineA: readA?.line, lineB: readB?.line,
                    textA: readA.map { text($0.text) }, textB: readB.map { text($0.text) }, field: nil))
            }
        }
    }

    /// One decision with the line it came from.
    struct Read {
        var decision: TraceDecision
        var time: MessagePackValue?
        var line: Int
        var text: [UInt8]
    }

    /// A trace's decisions with each instant's put in a canonical order (by their fields).
    final class InstantOrder {
        /// Decisions of one instant sorted at most; a longer instant keeps its written order
        /// beyond (memory stays bounded by it).
        static let maximumInstant = 10_000
        private let reader: TraceLineReader
        private let keepTime: Bool
        private var ready: [Read] = []
        private var position = 0
        private var lookahead: Read?
        private var ended = false

        init(_ reader: TraceLineReader, keepTime: Bool) {
            self.reader = reader
            self.keepTime = keepTime
        }

        func next() throws(TraceDiffError) -> Read? {
            if position == ready.count {
                try fill()
                if ready.isEmpty { return nil }
            }
            defer { position += 1 }
            return ready[position]
        }

        private func fill() throws(TraceDiffError) {
            ready.removeAll(keepingCapacity: true)
            position = 0
            let pending = lookahead
            lookahead = nil
            let first: Read
            if let pending {
                first = pending
            } else if let read = try read() {
                first = read
            } else {
                return
            }
            ready.append(first)
            // A line without a time is an instant of its own.
            while first.time != nil, ready.count < Self.maximumInstant, let following = try read() {
                guard following.time == first.time else {
                    lookahead = following
                    break
                }
                ready.append(following)
            }
            if ready.count > 1 {
                ready = ready.map { ($0, Self.key($0.decision)) }.sorted { $0.1 < $1.1 }.map(\.0)
            }
        }

        private func read() throws(TraceDiffError) -> Read? {
            guard !ended, let line = try reader.next() else {
                ended = true
                return nil
            }
            var decision = try parse(line, of: reader, keepTime: true)
            let time = decision.value(of: "t_ns")
            if !keepTime { decision.fields.removeAll { TraceDecision.timingKeys.contains($0.key) } }
            return Read(decision: decision, time: time, line: reader.lineNumber, text: line)
        }

        private static func key(_ decision: TraceDecision) -> String {
            decision.fields.map { "\($0.key)=\(String(describing: $0.value))" }.joined(separator: "\u{1}")
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

    static func parse(_ line: [UInt8], of reader: TraceLineReader, keepTime: Bool) throws(TraceDiffError) -> TraceDecision {
        do {
            return try TraceDecision(line: line, keepTime: keepTime)
        } catch {
            throw TraceDiffError("\(reader.path):\(reader.lineNumber): \(error.description)")
        }
    }

    static func text(_ line: [UInt8]) -> String {
        String(decoding: line, as: UTF8.self)
    }
}
