import Foundation
import LowbandBasics

/// A Mahimahi packet-delivery trace: the moments the link may deliver one MTU piece.
///
/// Each line of the file is a millisecond timestamp, one opportunity to deliver 1500 bytes;
/// a repeated timestamp is several opportunities in that millisecond. The trace repeats with a
/// period equal to its last timestamp, from the shaper's time zero: a file holding just `1` is
/// one opportunity every millisecond, 12 Mbit/s. Unused opportunities are lost, as in Mahimahi.
public struct MahimahiTrace: Sendable, Hashable {
    /// The opportunities of one period, in milliseconds, non-decreasing.
    public let milliseconds: [Int64]
    /// Where it was read from, for messages and `profiles show`.
    public let file: String

    /// Bytes one opportunity carries in Mahimahi.
    public static let bytesPerOpportunity = 1500

    /// The largest timestamp accepted: 10^9 ms, about 11.6 days (Mahimahi's own traces last
    /// minutes). The shaper works in Int64 nanoseconds; a larger period would overflow them.
    public static let maximumMilliseconds: Int64 = 1_000_000_000

    /// - Throws: ``ProfileError`` (`invalidTrace`) naming `file` and the line at fault.
    public init(text: String, file: String) throws(ProfileError) {
        var values: [Int64] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let entry = String(line).trimmingSpaces.trimmingCharacters(in: .init(charactersIn: "\r"))
            if entry.isEmpty { continue }
            guard let value = Int64(entry), value >= 0 else {
                throw ProfileError(.invalidTrace, file: file, line: lineNumber, reason: "'\(entry)' is not a millisecond timestamp (a whole number ≥ 0)")
            }
            guard value <= Self.maximumMilliseconds else {
                throw ProfileError(.invalidTrace, file: file, line: lineNumber, reason: "timestamp \(value) ms is beyond the longest period accepted, \(Self.maximumMilliseconds) ms (about 11.6 days)")
            }
            if let previous = values.last, value < previous {
                throw ProfileError(.invalidTrace, file: file, line: lineNumber, reason: "timestamp \(value) comes after \(previous); a trace must not go back in time")
            }
            values.append(value)
        }
        guard let last = values.last, last > 0 else {
            throw ProfileError(.invalidTrace, file: file, reason: "the trace needs at least one timestamp above 0 (its last timestamp is its period)")
        }
        self.milliseconds = values
        self.file = file
    }

    /// The length of one period: the last timestamp.
    public var period: Duration { .milliseconds(periodMilliseconds) }

    var periodMilliseconds: Int64 { milliseconds[milliseconds.count - 1] }

    /// The mean rate the trace offers, in bits per second.
    public var averageBitsPerSecond: Double {
        Double(milliseconds.count * Self.bytesPerOpportunity * 8) * 1000 / Double(periodMilliseconds)
    }

    /// The instant (ns since zero) of opportunity number `position`, counted over all periods.
    func time(ofPosition position: Int64) -> Int64 {
        let count = Int64(milliseconds.count)
        let cycle = position / count
        return (cycle * periodMilliseconds + milliseconds[Int(position % count)]) * 1_000_000
    }

    /// The first opportunity at or after `nanoseconds` whose number is at least `minimum`.
    func opportunity(atOrAfter nanoseconds: Int64, notBefore minimum: Int64) -> (position: Int64, time: Int64) {
        let count = Int64(milliseconds.count)
        let periodNanoseconds = periodMilliseconds * 1_000_000
        let cycle = max(0, nanoseconds / periodNanoseconds)
        var position = (cycle + 1) * count
        // The previous period's last opportunity may fall exactly on this period's start.
        for candidate in [cycle - 1, cycle] where candidate >= 0 {
            let base = candidate * periodNanoseconds
            var low = 0
            var high = milliseconds.count
            while low < high {
                let middle = (low + high) / 2
                if base + milliseconds[middle] * 1_000_000 >= nanoseconds { high = middle } else { low = middle + 1 }
            }
            if low < milliseconds.count {
                position = candidate * count + Int64(low)
                break
            }
        }
        position = max(position, minimum)
        return (position, time(ofPosition: position))
    }
}
