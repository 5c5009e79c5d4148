#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Date and Data are the only Foundation types the codec knows; they map to the timestamp
// extension and to bin. Nothing here is public, so the module's API stays Foundation-free.

extension MessagePackTimestamp {
    /// The timestamp of a `Date`, rounded to the nearest nanosecond a `Double` can express;
    /// nil for a date with no timestamp (infinite, NaN, or more than 2^63 seconds from 1970).
    init?(_ date: Date) {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanos = ((interval - seconds) * 1_000_000_000).rounded()
        if nanos >= 1_000_000_000 {
            seconds += 1
            nanos -= 1_000_000_000
        }
        guard let whole = Int64(exactly: seconds), let fraction = UInt32(exactly: nanos) else { return nil }
        self.init(seconds: whole, nanoseconds: fraction)
    }

    var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }
}

enum SpecialType {
    /// Encodes the types with a native MessagePack form; nil for every other type.
    static func node<T: Encodable>(for value: T) throws(MessagePackError) -> EncodingNode? {
        switch value {
        case let date as Date:
            guard let timestamp = MessagePackTimestamp(date) else {
                throw MessagePackError(.valueTooLarge, "date \(date.timeIntervalSince1970) s from 1970 has no timestamp form (it must be finite and within ±2^63 s)")
            }
            return .value(.timestamp(timestamp))
        case let data as Data: return .value(.binary([UInt8](data)))
        case let timestamp as MessagePackTimestamp: return .value(.timestamp(timestamp))
        case let raw as MessagePackValue: return .value(raw)
        default: return nil
        }
    }

    /// Whether `T` is one of the types ``decode(_:from:maxDepth:)`` reads.
    static func hasNativeForm<T>(_: T.Type) -> Bool {
        T.self == Date.self || T.self == Data.self || T.self == MessagePackTimestamp.self || T.self == MessagePackValue.self
    }

    /// Decodes the types with a native MessagePack form; nil for every other type.
    static func decode<T: Decodable>(_: T.Type, from reader: inout MessagePackReader, maxDepth: Int) throws(MessagePackError) -> T? {
        if T.self == Date.self {
            return try reader.readTimestamp().date as? T
        } else if T.self == Data.self {
            return Data(try reader.readBinary()) as? T
        } else if T.self == MessagePackTimestamp.self {
            return try reader.readTimestamp() as? T
        } else if T.self == MessagePackValue.self {
            return try reader.readValue(maxDepth: maxDepth) as? T
        }
        return nil
    }
}
