/// Readers for the compact JSON lists the cache writes: member ids (`[3,7,12]`) and empty
/// attachment lists (`[]`).
///
/// The first screen reads one member list per chat and one attachment list per last message;
/// a JSONDecoder costs microseconds for each, more than the row itself. These readers accept
/// only the exact form JSONEncoder writes and return nil for anything else, so the caller
/// falls back to the JSONDecoder: text that decoded before decodes to the same value, and bad
/// text still fails with the decoder's reason. Storage stays JSON either way.
enum StoredLists {
    /// The ids of `[1,-2,3]` (no spaces, no leading zeros, each fitting in Int64), or nil when
    /// `text` is not exactly in that form.
    static func integers(_ text: String) -> [Int64]? {
        var text = text
        return text.withUTF8 { bytes -> [Int64]? in
            let count = bytes.count
            guard count >= 2, bytes[0] == UInt8(ascii: "["), bytes[count - 1] == UInt8(ascii: "]") else { return nil }
            if count == 2 { return [] }
            var values: [Int64] = []
            var index = 1
            while true {
                guard let (value, end) = integer(bytes, from: index, before: count - 1) else { return nil }
                values.append(value)
                if end == count - 1 { return values }
                guard bytes[end] == UInt8(ascii: ",") else { return nil }
                index = end + 1
            }
        }
    }

    /// True when `text` is exactly `[]`.
    static func isEmptyList(_ text: String) -> Bool {
        text.utf8.elementsEqual("[]".utf8)
    }

    /// One JSON integer starting at `start` (before `limit`): the value and the index after its
    /// last digit, or nil when there is none there, it has a leading zero, or it overflows.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> (Int64, Int)? {
        var index = start
        let negative = index < limit && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let firstDigit = index
        var magnitude: UInt64 = 0
        while index < limit, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - firstDigit
        guard digits > 0, digits == 1 || bytes[firstDigit] != UInt8(ascii: "0") else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return (magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude), index)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return (Int64(magnitude), index)
    }
}
