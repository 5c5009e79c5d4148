import LowbandMessagePack

/// One line of a trace, reduced to the fields that are decisions: what the shaper (or a client)
/// did, to which connection, how many bytes, how long it drew — not when the wall clock said it
/// happened.
///
/// Lines are flat JSON objects: the shaper's (`t_ns`, `event`, `conn`, `dir`, `bytes`,
/// `delay_ns`, `queued`, `detail`) and a run's client lines (`t_ns`, `event`, `client`, `chat`,
/// `message`, `value_ns`, `detail`). ``timingKeys`` are dropped unless the times are to be
/// compared too (virtual-time traces, where they are decisions as well).
struct TraceDecision: Equatable {
    /// Fields that carry a clock reading or a measured duration: the time of the line and a
    /// client line's measured figure.
    static let timingKeys: Set<String> = ["t_ns", "value_ns"]

    /// The kept fields in the line's order.
    var fields: [(key: String, value: MessagePackValue)]

    static func == (lhs: TraceDecision, rhs: TraceDecision) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Parses one line; `keepTime` keeps ``timingKeys``.
    ///
    /// - Throws: ``TraceDiffError`` when the line is not one flat JSON object.
    init(line: [UInt8], keepTime: Bool) throws(TraceDiffError) {
        var parser = MessagePackJSONParser(line, maxDepth: 2)
        let value: MessagePackValue?
        do {
            value = try parser.next()
            try parser.expectEnd()
        } catch {
            throw TraceDiffError("not a JSON line: \(error)")
        }
        guard case .map(let pairs)? = value else {
            throw TraceDiffError("not a JSON object")
        }
        var fields: [(key: String, value: MessagePackValue)] = []
        fields.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .string(let key) = pair.key else { throw TraceDiffError("a key that is not a string") }
            if !keepTime && Self.timingKeys.contains(key) { continue }
            fields.append((key, pair.value))
        }
        self.fields = fields
    }

    /// The first field, in this line's order and then the other's, whose value differs (or that
    /// only one of them has); nil when the decisions are the same.
    func firstDifference(from other: TraceDecision) -> (key: String, mine: MessagePackValue?, theirs: MessagePackValue?)? {
        for (key, value) in fields {
            let theirs = other.value(of: key)
            if theirs != value { return (key, value, theirs) }
        }
        for (key, value) in other.fields where self.value(of: key) == nil {
            return (key, nil, value)
        }
        return nil
    }

    func value(of key: String) -> MessagePackValue? {
        fields.first { $0.key == key }?.value
    }
}

/// Why a trace could not be read: one line of text, with the file and line added by the reader.
package struct TraceDiffError: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
