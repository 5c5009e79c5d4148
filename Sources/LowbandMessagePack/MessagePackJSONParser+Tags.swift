extension MessagePackJSONParser {
    /// The tags an object may carry, and the other keys each one takes.
    static let tagFields: [String: Set<String>] = [
        "$float32": [], "$float64": [], "$bin": [], "$map": [],
        "$ext": ["data"], "$timestamp": ["seconds", "nanoseconds"],
    ]

    /// A plain map, or the tagged value an object with a `$` key stands for.
    func objectValue(_ members: [Member], at start: Int, depth: Int) throws(MessagePackJSONError) -> MessagePackValue {
        let tags = members.filter { $0.key.utf8.first == UInt8(ascii: "$") }
        guard let tag = tags.first else {
            guard depth < maxDepth else { throw tooDeep(at: start) }
            var seen = Set<[UInt8]>()
            for member in members where !seen.insert(Array(member.key.utf8)).inserted {
                throw failure(.duplicateKey, "key \"\(member.key)\" appears twice in this object; write maps with repeated keys as {\"$map\": [[key, value], ...]}", at: member.keyOffset)
            }
            return .map(members.map { (key: .string($0.key), value: $0.value) })
        }
        guard let allowed = Self.tagFields[tag.key] else {
            throw failure(.invalidTag, "unknown tag \"\(tag.key)\"; keys starting with '$' mark tagged values ($float32, $float64, $bin, $ext, $timestamp, $map); write a map with such keys as {\"$map\": [[key, value], ...]}", at: tag.keyOffset)
        }
        if tags.count > 1 {
            throw failure(.invalidTag, "object has a second '$' key \"\(tags[1].key)\" after \"\(tag.key)\"; a tagged value has exactly one", at: tags[1].keyOffset)
        }
        var fields: [String: Member] = [:]
        for member in members where member.key != tag.key {
            guard allowed.contains(member.key) else {
                let takes = allowed.isEmpty ? "takes no other keys" : "takes only " + allowed.sorted().map { "\"\($0)\"" }.joined(separator: " and ")
                throw failure(.invalidTag, "unexpected key \"\(member.key)\": a \(tag.key) object \(takes)", at: member.keyOffset)
            }
            guard fields.updateValue(member, forKey: member.key) == nil else {
                throw failure(.duplicateKey, "key \"\(member.key)\" appears twice in this \(tag.key) object", at: member.keyOffset)
            }
        }
        switch tag.key {
        case "$float32": return try floatValue(tag, float32: true)
        case "$float64": return try floatValue(tag, float32: false)
        case "$bin": return .binary(try base64(tag))
        case "$ext": return try extensionValue(tag, data: fields["data"], objectAt: start)
        case "$timestamp": return try timestamp(tag, seconds: fields["seconds"], nanoseconds: fields["nanoseconds"])
        default:
            guard depth < maxDepth else { throw tooDeep(at: start) }
            return tag.value
        }
    }

    /// The number under a float tag, or the float named by `"NaN"`, `"-NaN"`, `"Infinity"`,
    /// `"-Infinity"` or a `0x` bit pattern (8 hex digits for float32, 16 for float64).
    private func floatValue(_ tag: Member, float32: Bool) throws(MessagePackJSONError) -> MessagePackValue {
        let hexDigits = float32 ? 8 : 16
        let quietNaN: UInt64 = float32 ? 0x7fc0_0000 : 0x7ff8_0000_0000_0000
        let infinity: UInt64 = float32 ? 0x7f80_0000 : 0x7ff0_0000_0000_0000
        let sign: UInt64 = 1 << UInt64(hexDigits * 4 - 1)
        func fromBits(_ bits: UInt64) -> MessagePackValue {
            float32 ? .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : .double(Double(bitPattern: bits))
        }
        switch tag.value {
        case .float, .double: return tag.value
        case .string("NaN"): return fromBits(quietNaN)
        case .string("-NaN"): return fromBits(quietNaN | sign)
        case .string("Infinity"): return fromBits(infinity)
        case .string("-Infinity"): return fromBits(infinity | sign)
        case let .string(text) where text.hasPrefix("0x") && text.utf8.count == 2 + hexDigits && text.dropFirst(2).allSatisfy(\.isHexDigit):
            if let bits = UInt64(text.dropFirst(2), radix: 16) { return fromBits(bits) }
        default: break
        }
        throw failure(.invalidTag, "\(tag.key) takes a number, \"NaN\", \"-NaN\", \"Infinity\", \"-Infinity\" or a bit pattern \"0x\" + \(hexDigits) hex digits", at: tag.valueOffset)
    }

    private func base64(_ member: Member) throws(MessagePackJSONError) -> [UInt8] {
        guard case let .string(text) = member.value else {
            throw failure(.invalidTag, "\(member.key) takes a base64 string", at: member.valueOffset)
        }
        switch MessagePackJSONBase64.decode(text) {
        case let .success(data): return data
        case let .failure(error):
            throw failure(.invalidTag, "\(member.key): \(error.reason) (character \(error.index + 1) of the string)", at: member.valueOffset)
        }
    }

    private func extensionValue(_ tag: Member, data: Member?, objectAt start: Int) throws(MessagePackJSONError) -> MessagePackValue {
        guard let type = tag.value.int64Value.flatMap({ Int8(exactly: $0) }) else {
            throw failure(.invalidTag, "$ext takes an integer type code -128…127", at: tag.valueOffset)
        }
        guard let data else {
            throw failure(.invalidTag, "a $ext object needs a \"data\" key holding base64", at: start)
        }
        return .extension(type: type, data: try base64(data))
    }

    private func timestamp(_ tag: Member, seconds: Member?, nanoseconds: Member?) throws(MessagePackJSONError) -> MessagePackValue {
        guard case let .string(text) = tag.value else {
            throw failure(.invalidTag, "$timestamp takes a string such as \"2024-05-01T12:00:00Z\"", at: tag.valueOffset)
        }
        let parsed = MessagePackJSONTime.timestamp(from: text)
        guard let seconds else {
            if let nanoseconds {
                throw failure(.invalidTag, "\"nanoseconds\" needs \"seconds\" beside it in a $timestamp object", at: nanoseconds.keyOffset)
            }
            guard let parsed else {
                throw failure(.invalidTag, "$timestamp text \"\(text)\" is not of the form YYYY-MM-DDTHH:MM:SS[.fraction]Z with a year 0000…9999 (give \"seconds\" for other years)", at: tag.valueOffset)
            }
            return .timestamp(parsed)
        }
        guard case let .int(wholeSeconds) = seconds.value else {
            throw failure(.invalidTag, "\"seconds\" takes an integer that fits Int64", at: seconds.valueOffset)
        }
        var nanos: UInt32 = 0
        if let nanoseconds {
            guard let value = nanoseconds.value.int64Value, (0 ..< 1_000_000_000).contains(value) else {
                throw failure(.invalidTag, "\"nanoseconds\" takes an integer 0…999999999", at: nanoseconds.valueOffset)
            }
            nanos = UInt32(value)
        }
        let timestamp = MessagePackTimestamp(seconds: wholeSeconds, nanoseconds: nanos)
        let canonical = MessagePackJSONTime.text(of: timestamp)
        guard parsed == timestamp || text == canonical else {
            throw failure(.invalidTag, "$timestamp text \"\(text)\" disagrees with seconds \(wholeSeconds) and nanoseconds \(nanos), which are \"\(canonical)\"; correct one of them, or drop \"seconds\" and \"nanoseconds\" to use the text", at: tag.valueOffset)
        }
        return .timestamp(timestamp)
    }
}
