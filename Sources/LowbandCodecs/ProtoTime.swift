/// google.protobuf.Timestamp and Duration in their JSON forms, read step for step as Python
/// protobuf's `Timestamp.FromJsonString` and `Duration.FromJsonString` read them (so the same
/// strings are taken and refused), and written as their `ToJsonString` writes them.
///
/// Timestamp: the zone is the first `Z`, else the first `+`, else the last `-`; the date and
/// time before it are `strptime`'s `%Y-%m-%dT%H:%M:%S` (one-digit fields, a space before a
/// one-digit day and any Unicode digits where its regex has `\d` included); at most 9
/// fractional digits, nanos `round(float("0." + digits) * 1e9)`; then 0001-01-01T00:00:00Z to
/// 9999-12-31T23:59:59Z. Duration: `int` of what precedes the `.`, nanos rounded the same way
/// and signed by the text's first character; ±315,576,000,000 s.
enum ProtoTime {
    struct Failure: Error {
        var reason: String
    }

    static let timestampSecondsRange: ClosedRange<Int64> = -62_135_596_800 ... 253_402_300_799
    static let durationSecondsLimit: Int64 = 315_576_000_000

    /// Seconds and nanos since the Unix epoch.
    static func timestamp(_ text: String) throws(Failure) -> (seconds: Int64, nanos: Int32) {
        if let quick = canonicalTimestamp(text) { return quick }
        return try generalTimestamp(text)
    }

    /// ``timestamp(_:)`` for any text, step for step as Python.
    static func generalTimestamp(_ text: String) throws(Failure) -> (seconds: Int64, nanos: Int32) {
        let value = Array(text.unicodeScalars)
        guard let zone = value.firstIndex(of: "Z") ?? value.firstIndex(of: "+") ?? value.lastIndex(of: "-") else {
            throw Failure(reason: "no time zone (Z or ±HH:MM)")
        }
        let time = value[..<zone]
        let point = time.firstIndex(of: ".")
        let whole = time[..<(point ?? time.endIndex)]
        let fraction = point.map { time[($0 + 1)...] } ?? []
        guard !whole.contains("t") else { throw Failure(reason: "a lowercase t") }
        guard let civil = dateAndTime(whole) else {
            // Python takes the last `-` for the zone when there is no Z or +: one of the date's.
            let noZone = value[zone] == "-" && !time.contains("T") && !time.contains("t")
            throw Failure(reason: noZone ? "no time zone (Z or ±HH:MM)" : "the date and time do not read as YYYY-MM-DDTHH:MM:SS")
        }
        guard (1 ... 9999).contains(civil.year), civil.day <= daysIn(month: civil.month, year: civil.year), civil.second <= 59 else {
            throw Failure(reason: "no such date or time")
        }
        var seconds = daysFromCivil(year: civil.year, month: civil.month, day: civil.day) * 86_400 + civil.hour * 3_600 + civil.minute * 60 + civil.second
        guard fraction.count <= 9 else { throw Failure(reason: "more than 9 fractional digits") }
        var nanos: Int64 = 0
        if !fraction.isEmpty { nanos = try roundedNanos(Array("0.".unicodeScalars) + fraction) }
        if value[zone] == "Z" {
            guard zone == value.count - 1 else { throw Failure(reason: "text after the Z") }
        } else {
            let offset = value[zone...]
            guard let colon = offset.firstIndex(of: ":"), let hours = ProtoPythonNumbers.int(offset[(zone + 1) ..< colon]),
                  let minutes = ProtoPythonNumbers.int(offset[(colon + 1)...]) else {
                throw Failure(reason: "a time zone offset that is not ±HH:MM")
            }
            // Python's integers have no bound; offsets this large put any time out of range.
            guard hours.magnitude < 1 << 40, minutes.magnitude < 1 << 40 else { throw Failure(reason: "an offset out of range") }
            let shift = (hours * 60 + minutes) * 60
            seconds += value[zone] == "+" ? -shift : shift
        }
        guard timestampSecondsRange.contains(seconds), (0 ..< 1_000_000_000).contains(nanos) else {
            throw Failure(reason: "outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z")
        }
        return (seconds, Int32(nanos))
    }

    /// Seconds and nanos, both of the duration's sign.
    static func duration(_ text: String) throws(Failure) -> (seconds: Int64, nanos: Int32) {
        if let quick = canonicalDuration(text) { return quick }
        return try generalDuration(text)
    }

    /// ``duration(_:)`` for any text, step for step as Python.
    static func generalDuration(_ text: String) throws(Failure) -> (seconds: Int64, nanos: Int32) {
        let value = Array(text.unicodeScalars)
        guard value.last == "s" else { throw Failure(reason: "it does not end in s") }
        let seconds: Int64
        var nanos: Int64 = 0
        if let point = value.firstIndex(of: ".") {
            guard let whole = ProtoPythonNumbers.int(value[..<point]) else { throw Failure(reason: "the seconds are not a whole number") }
            seconds = whole
            let fraction = Array(value[point ..< (value.count - 1)])
            let sign = value[0] == "-" ? "-0" : "0"
            nanos = try roundedNanos(Array(sign.unicodeScalars) + fraction)
        } else {
            guard let whole = ProtoPythonNumbers.int(value.dropLast()) else { throw Failure(reason: "the seconds are not a whole number") }
            seconds = whole
        }
        guard (-durationSecondsLimit ... durationSecondsLimit).contains(seconds), (-999_999_999 ... 999_999_999).contains(nanos) else {
            throw Failure(reason: "outside ±315,576,000,000 s")
        }
        guard !(nanos < 0 && seconds > 0 || nanos > 0 && seconds < 0) else { throw Failure(reason: "the seconds and the fraction differ in sign") }
        return (seconds, Int32(nanos))
    }

    // MARK: the forms apps write, without allocating

    /// `YYYY-MM-DDTHH:MM:SS[.d{1,9}](Z|±HH:MM)` in ASCII and in range, read directly: what the
    /// general reader gives for it (at most 9 digits scale to nanos exactly), or nil for the
    /// general reader to read, or to refuse with its reason.
    static func canonicalTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> (seconds: Int64, nanos: Int32)? in
            guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
                  let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
                  year >= 1, (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59, second <= 59
            else { return nil }
            var index = 19
            var nanos: Int64 = 0
            if bytes[index] == UInt8(ascii: ".") {
                let start = index + 1
                index = start
                while index < bytes.count, index - start < 10, isDigit(bytes[index]) { index += 1 }
                guard index > start, index - start <= 9, let fraction = number(bytes, start, index - start) else { return nil }
                nanos = fraction * powerOfTen[9 - (index - start)]
            }
            var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            if bytes.count == index + 1, bytes[index] == UInt8(ascii: "Z") {
            } else if bytes.count == index + 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: ":"),
                      let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2) {
                seconds += (bytes[index] == UInt8(ascii: "+") ? -1 : 1) * (hours * 60 + minutes) * 60
            } else {
                return nil
            }
            return timestampSecondsRange.contains(seconds) ? (seconds, Int32(nanos)) : nil
        } ?? nil
    }

    /// `[-]d{1,12}[.d{1,9}]s` in ASCII and in range, read directly (see ``canonicalTimestamp(_:)``).
    static func canonicalDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> (seconds: Int64, nanos: Int32)? in
            guard bytes.count >= 2, bytes[bytes.count - 1] == UInt8(ascii: "s") else { return nil }
            let negative = bytes[0] == UInt8(ascii: "-")
            let start = negative ? 1 : 0
            var index = start
            while index < bytes.count - 1, isDigit(bytes[index]) { index += 1 }
            guard index > start, index - start <= 12, let whole = number(bytes, start, index - start) else { return nil }
            var nanos: Int64 = 0
            if index < bytes.count - 1 {
                let digits = bytes.count - 2 - index
                guard bytes[index] == UInt8(ascii: "."), (1 ... 9).contains(digits), let fraction = number(bytes, index + 1, digits) else { return nil }
                nanos = fraction * powerOfTen[9 - digits]
            }
            guard whole <= durationSecondsLimit else { return nil }
            return negative ? (-whole, Int32(-nanos)) : (whole, Int32(nanos))
        } ?? nil
    }

    private static let powerOfTen: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// The ASCII digits `bytes[start ..< start + count]` as a number; nil where one is not a digit.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for index in start ..< start + count {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `round(float(text) * 1e9)`, half to even, as Python rounds; beyond ±2^62 it is out of
    /// every range anyway.
    private static func roundedNanos(_ text: [Unicode.Scalar]) throws(Failure) -> Int64 {
        guard let number = ProtoPythonNumbers.float(text) else { throw Failure(reason: "the fraction is not a number") }
        let scaled = (number * 1e9).rounded(.toNearestOrEven)
        guard scaled.isFinite else { throw Failure(reason: "the fraction is out of range") }
        return abs(scaled) < 0x1p62 ? Int64(scaled) : (scaled < 0 ? -(1 << 62) : 1 << 62)
    }

    /// As Python's `Timestamp.ToJsonString`: Z, and 0, 3, 6 or 9 fractional digits.
    static func timestampText(seconds: Int64, nanos: Int32) -> String? {
        guard timestampSecondsRange.contains(seconds), (0 ..< 1_000_000_000).contains(nanos) else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civilFromDays(days)
        let within = seconds - days * 86_400
        let text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(within / 3_600, 2)):\(pad(within / 60 % 60, 2)):\(pad(within % 60, 2))"
        return text + fractionText(Int64(nanos)) + "Z"
    }

    /// As Python's `Duration.ToJsonString`: `-` when either part is negative, then 0, 3, 6 or 9
    /// fractional digits and `s`.
    static func durationText(seconds: Int64, nanos: Int32) -> String? {
        guard (-durationSecondsLimit ... durationSecondsLimit).contains(seconds), abs(nanos) < 1_000_000_000,
              !(nanos < 0 && seconds > 0 || nanos > 0 && seconds < 0) else { return nil }
        let sign = seconds < 0 || nanos < 0 ? "-" : ""
        return "\(sign)\(abs(seconds))\(fractionText(abs(Int64(nanos))))s"
    }

    private static func fractionText(_ nanos: Int64) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + pad(nanos / 1_000_000, 3) }
        if nanos % 1_000 == 0 { return "." + pad(nanos / 1_000, 6) }
        return "." + pad(nanos, 9)
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: strptime's %Y-%m-%dT%H:%M:%S

    private typealias Atom = @Sendable (Unicode.Scalar) -> Bool

    private static let digit: Atom = { ProtoPythonNumbers.decimalDigit($0) != nil }
    private static func among(_ characters: String) -> Atom {
        { scalar in characters.unicodeScalars.contains(scalar) }
    }

    /// strptime's regex, one group per field or separator, each a list of alternatives tried in
    /// order (Python 3's `_strptime` patterns, compiled case-insensitively).
    private static let pattern: [[[Atom]]] = [
        [[digit, digit, digit, digit]],
        [[among("-")]],
        [[among("1"), among("012")], [among("0"), among("123456789")], [among("123456789")]],
        [[among("-")]],
        [[among("3"), among("01")], [among("12"), digit], [among("0"), among("123456789")], [among("123456789")], [among(" "), among("123456789")]],
        [[among("Tt")]],
        [[among("2"), among("0123")], [among("01"), digit], [digit]],
        [[among(":")]],
        [[among("012345"), digit], [digit]],
        [[among(":")]],
        [[among("6"), among("01")], [among("012345"), digit], [digit]],
    ]

    private struct Civil {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    }

    /// The fields of `text`, matched by ``pattern`` with backtracking and to its end; nil where
    /// strptime raises.
    private static func dateAndTime(_ text: ArraySlice<Unicode.Scalar>) -> Civil? {
        var spans: [Range<Int>] = []
        func match(_ group: Int, _ position: Int) -> Bool {
            if group == pattern.count { return position == text.endIndex }
            for alternative in pattern[group] {
                guard text.endIndex - position >= alternative.count else { continue }
                guard alternative.indices.allSatisfy({ alternative[$0](text[position + $0]) }) else { continue }
                spans.append(position ..< position + alternative.count)
                if match(group + 1, position + alternative.count) { return true }
                spans.removeLast()
            }
            return false
        }
        guard match(0, text.startIndex) else { return nil }
        let numbers = spans.enumerated().filter { $0.offset % 2 == 0 }.map { ProtoPythonNumbers.int(text[$0.element]) ?? 0 }
        return Civil(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4], second: numbers[5])
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
