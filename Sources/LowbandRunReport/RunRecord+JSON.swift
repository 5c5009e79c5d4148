import LowbandFindings

extension RunRecord {
    /// `records` as `record.json` holds them: the bytes `JSONEncoder` writes with
    /// `[.prettyPrinted, .sortedKeys]`, without going through `Encoder`.
    ///
    /// A 100-client crowd hour's record is 13 MB; `JSONEncoder` spent about 8 % of that run on
    /// it (boxing every value, sorting every object's keys). `RecordJSONTests` compares the two.
    ///
    /// - Throws: ``RecordJSONError`` when a figure is NaN or infinite, which JSON cannot hold
    ///   (`JSONEncoder` threw on it too).
    package static func prettyJSON(_ records: [RunRecord]) throws(RecordJSONError) -> [UInt8] {
        var writer = PrettyJSONWriter(capacity: 1 << 16)
        writer.openArray()
        for record in records {
            writer.element()
            record.write(to: &writer)
        }
        writer.closeArray()
        guard writer.nonFiniteNumbers == 0 else { throw RecordJSONError(nonFiniteNumbers: writer.nonFiniteNumbers) }
        return writer.bytes
    }

    // Keys in the order of their UTF-8 bytes; nil optionals left out (synthesized Codable).
    private func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        writer.key("clients"); writer.number(clients)
        writer.key("command"); writer.string(command)
        if let drain {
            writer.key("drain")
            writer.openObject()
            writer.key("judgedUntilSeconds"); writer.number(drain.judgedUntilSeconds)
            writer.key("seconds"); writer.number(drain.seconds)
            writer.key("settled"); writer.bool(drain.settled)
            writer.closeObject()
        }
        writer.key("durationSeconds"); writer.number(durationSeconds)
        if let floorMilliseconds { writer.key("floorMilliseconds"); writer.number(floorMilliseconds) }
        writer.key("invariants"); writer.array(invariants) { $1.write(to: &$0) }
        if let livenessSeconds { writer.key("livenessSeconds"); writer.number(livenessSeconds) }
        if let medianMilliseconds { writer.key("medianMilliseconds"); writer.number(medianMilliseconds) }
        writer.key("metrics"); writer.array(metrics) { $1.write(to: &$0) }
        writer.key("partial"); writer.bool(partial)
        writer.key("profile"); writer.string(profile)
        if let samplesBelowFloor { writer.key("samplesBelowFloor"); writer.number(samplesBelowFloor) }
        writer.key("scenario"); writer.string(scenario)
        writer.key("seed"); writer.number(seed)
        if let settleSeconds { writer.key("settleSeconds"); writer.number(settleSeconds) }
        writer.key("slowest"); writer.array(slowest) { $1.write(to: &$0) }
        writer.key("stages"); writer.array(stages) { $1.write(to: &$0) }
        writer.key("timeline"); writer.array(timeline) { $1.write(to: &$0) }
        writer.key("traffic"); writer.array(traffic) { $1.write(to: &$0) }
        writer.key("violations"); writer.array(violations) { $1.write(to: &$0) }
        writer.key("virtualTime"); writer.bool(virtualTime)
        writer.closeObject()
    }
}

extension PrettyJSONWriter {
    /// An array of `items`, each written by `write`.
    mutating func array<Item>(_ items: [Item], _ write: (inout PrettyJSONWriter, Item) -> Void) {
        openArray()
        for item in items {
            element()
            write(&self, item)
        }
        closeArray()
    }

    /// An array of numbers.
    mutating func numbers(_ values: [Double]) {
        array(values) { $0.number($1) }
    }
}

extension RunMetric {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        writer.key("name"); writer.string(name)
        if let startSeconds { writer.key("startSeconds"); writer.numbers(startSeconds) }
        writer.key("unit"); writer.string(unit)
        writer.key("values"); writer.numbers(values)
        writer.closeObject()
    }
}

extension TrafficBucket {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        writer.key("downBytes"); writer.number(downBytes)
        writer.key("startSeconds"); writer.number(startSeconds)
        writer.key("upBytes"); writer.number(upBytes)
        writer.closeObject()
    }
}

extension TimelineEvent {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        if let client { writer.key("client"); writer.number(client) }
        writer.key("detail"); writer.string(detail)
        writer.key("kind"); writer.string(kind.rawValue)
        writer.key("seconds"); writer.number(seconds)
        writer.closeObject()
    }
}

extension InvariantCheck {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        writer.key("checked"); writer.number(checked)
        writer.key("name"); writer.string(name)
        writer.key("promise"); writer.string(promise)
        writer.key("violations"); writer.number(violations)
        writer.closeObject()
    }
}

extension InvariantViolation {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        if let chat { writer.key("chat"); writer.number(chat) }
        if let client { writer.key("client"); writer.number(client) }
        if let clientID { writer.key("clientID"); writer.number(clientID) }
        writer.key("detail"); writer.string(detail)
        writer.key("invariant"); writer.string(invariant)
        if let message { writer.key("message"); writer.number(message) }
        writer.key("seconds"); writer.number(seconds)
        writer.key("traceLines"); writer.array(traceLines) { $0.string($1) }
        writer.closeObject()
    }
}

extension MessageBreakdown {
    fileprivate func write(to writer: inout PrettyJSONWriter) {
        writer.openObject()
        writer.key("attempts"); writer.number(attempts)
        writer.key("carrier"); writer.string(carrier)
        writer.key("chat"); writer.number(chat)
        writer.key("message"); writer.number(message)
        if let note { writer.key("note"); writer.string(note) }
        writer.key("receiver"); writer.number(receiver)
        if let sender { writer.key("sender"); writer.number(sender) }
        writer.key("stages"); writer.numbers(stages)
        writer.key("startSeconds"); writer.number(startSeconds)
        writer.closeObject()
    }
}

/// A run record that JSON cannot hold.
package struct RecordJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// How many of the record's figures are NaN or infinite.
    package var nonFiniteNumbers: Int

    package var description: String {
        "record.json: \(nonFiniteNumbers) figure(s) of the run are NaN or infinite, which JSON cannot hold"
    }
}
