/// RFC 3339 text for timestamps, computed by hand in the proleptic Gregorian calendar (UTC).
///
/// Conversions use Howard Hinnant's `civil_from_days`/`days_from_civil`, which are exact for
/// every `Int64` second count. Years 0…9999 print as four digits; others use the ISO 8601
/// expanded form (`+10000-01-01…`, `-0001-12-31…`).
enum MessagePackJSONTime {
    /// `2038-01-19T03:14:08.000000001Z`; the fraction is left out when nanoseconds are zero.
    static func text(of timestamp: MessagePackTimestamp) -> String {
        let (days, secondOfDay) = floorDivide(timestamp.seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = year < 0 ? "-" : (year > 9999 ? "+" : "")
        text += padded(year.magnitude, 4)
        text += "-" + padded(UInt64(month), 2) + "-" + padded(UInt64(day), 2)
        text += "T" + padded(UInt64(secondOfDay / 3600), 2) + ":" + padded(UInt64(secondOfDay / 60 % 60), 2)
        text += ":" + padded(UInt64(secondOfDay % 60), 2)
        if timestamp.nanoseconds != 0 { text += "." + padded(UInt64(timestamp.nanoseconds), 9) }
        return text + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` with a four-digit year 0000…9999 and 1…9
    /// fraction digits; nil when the text is not in that form or names an impossible date.
    static func timestamp(from text: String) -> MessagePackTimestamp? {
        let chars = Array(text.utf8)
        guard chars.count >= 20, chars.last == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for char in chars[from ..< from + count] {
                guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(char - UInt8(ascii: "0"))
            }
            return value
        }
        func separator(_ index: Int, _ char: Character) -> Bool { chars[index] == char.asciiValue }
        guard separator(4, "-"), separator(7, "-"), separator(10, "T"), separator(13, ":"), separator(16, ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var nanoseconds: Int64 = 0
        let fraction = chars.count - 21
        if chars.count > 20 {
            guard separator(19, "."), (1 ... 9).contains(fraction), let digits = number(20, fraction) else { return nil }
            nanoseconds = digits
            for _ in fraction ..< 9 { nanoseconds *= 10 }
        }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return MessagePackTimestamp(seconds: seconds, nanoseconds: UInt32(nanoseconds))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromYear civilYear: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? civilYear - 1 : civilYear
        let era = floorDivide(year, 400).quotient
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func padded(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
