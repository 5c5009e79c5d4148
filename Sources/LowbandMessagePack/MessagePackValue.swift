/// Any MessagePack value, with maps kept in the order their entries were written or read.
///
/// Integers read from the wire become `.int` when they fit `Int64` and `.uint` only above
/// `Int64.max`; equality compares integers by value, so `.int(5) == .uint(5)`. Floating-point
/// values compare by bit pattern, so NaN equals the same NaN and `-0.0` differs from `0.0`;
/// strings compare by their UTF-8 bytes, not by Unicode canonical equivalence: equality means
/// "encodes to the same bytes".
public enum MessagePackValue: Sendable {
    /// The nil value.
    case `nil`
    /// A boolean.
    case bool(Bool)
    /// An integer that fits `Int64` (any MessagePack int or uint format).
    case int(Int64)
    /// An unsigned integer above `Int64.max`.
    case uint(UInt64)
    /// A 32-bit float.
    case float(Float)
    /// A 64-bit float.
    case double(Double)
    /// A UTF-8 string.
    case string(String)
    /// Raw bytes (the bin formats).
    case binary([UInt8])
    /// An array, in order.
    case array([MessagePackValue])
    /// A map as ordered entries; duplicate keys are kept as they are.
    case map([(key: MessagePackValue, value: MessagePackValue)])
    /// An application extension: a type code (-128...127; -1 is the timestamp) and its bytes.
    case `extension`(type: Int8, data: [UInt8])
    /// A timestamp (extension type -1), decoded.
    case timestamp(MessagePackTimestamp)
}

extension MessagePackValue: Equatable {
    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case (.nil, .nil): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.uint(a), .uint(b)): return a == b
        case let (.int(a), .uint(b)), let (.uint(b), .int(a)): return a >= 0 && UInt64(a) == b
        case let (.float(a), .float(b)): return a.bitPattern == b.bitPattern
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.binary(a), .binary(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.map(a), .map(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.extension(t1, d1), .extension(t2, d2)): return t1 == t2 && d1 == d2
        case let (.timestamp(a), .timestamp(b)): return a == b
        default: return false
        }
    }
}

extension MessagePackValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .nil }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: MessagePackValue...) { self = .array(elements) }
    /// Keeps the literal's order, unlike a `Dictionary`.
    public init(dictionaryLiteral elements: (MessagePackValue, MessagePackValue)...) {
        self = .map(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension MessagePackValue {
    /// The integer as `Int64`, or nil if this is not an integer or does not fit.
    public var int64Value: Int64? {
        switch self {
        case let .int(value): return value
        case let .uint(value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The string, or nil if this is not a string.
    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The value for the first entry whose key is the string `key`, when this is a map.
    public subscript(key: String) -> MessagePackValue? {
        guard case let .map(entries) = self else { return nil }
        return entries.first { $0.key == .string(key) }?.value
    }
}
