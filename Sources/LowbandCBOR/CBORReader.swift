public import LowbandMessagePack

/// Reads one CBOR data item (RFC 8949) of definite lengths back into a `MessagePackValue`,
/// the inverse of ``CBORWriter``; bounded, so a hostile input fails with ``CBORError`` instead
/// of trapping or allocating without limit: every length is checked against the bytes left
/// before anything is allocated.
///
/// Not taken: indefinite lengths, tags other than the extension tags ``CBORWriter`` writes,
/// simple values other than false, true and null, reserved additional information (28–30).
/// A half float is widened to a double.
public struct CBORReader: Sendable {
    /// The deepest nesting of arrays, maps and tags read.
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    /// Where the next data item starts.
    public private(set) var offset = 0

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads the next data item.
    ///
    /// - Throws: ``CBORError`` naming what was wrong and the byte offset where it was found.
    public mutating func readValue() throws(CBORError) -> MessagePackValue {
        try read(depth: 0)
    }

    private mutating func read(depth: Int) throws(CBORError) -> MessagePackValue {
        guard depth <= Self.maximumDepth else { throw CBORError(.depthLimitExceeded, "nested deeper than \(Self.maximumDepth)", offset: offset) }
        let start = offset
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .nil
            case 25:
                return .double(Self.half(UInt16(try integer(width: 2))))
            case 26: return .float(Float(bitPattern: UInt32(try integer(width: 4))))
            case 27: return .double(Double(bitPattern: try integer(width: 8)))
            default: throw CBORError(.notTaken, "simple value \(info) is not taken", offset: start)
            }
        }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return argument <= UInt64(Int64.max) ? .int(Int64(argument)) : .uint(argument)
        case 1:
            guard argument <= UInt64(Int64.max) else { throw CBORError(.notTaken, "negative integer below Int64's range", offset: start) }
            return .int(-1 - Int64(argument))
        case 2: return .binary(try take(argument, at: start))
        case 3:
            let utf8 = try take(argument, at: start)
            guard let text = String(validating: utf8, as: UTF8.self) else { throw CBORError(.malformed, "text string is not UTF-8", offset: start) }
            return .string(text)
        case 4:
            let count = try self.count(argument, at: start)
            var elements: [MessagePackValue] = []
            elements.reserveCapacity(count)
            for _ in 0 ..< count { elements.append(try read(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try self.count(argument, at: start)
            var entries: [(key: MessagePackValue, value: MessagePackValue)] = []
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                let key = try read(depth: depth + 1)
                entries.append((key, try read(depth: depth + 1)))
            }
            return .map(entries)
        default:
            guard argument >= CBORWriter.extensionTagBase, argument <= CBORWriter.extensionTagBase + 255 else {
                throw CBORError(.notTaken, "tag \(argument) is not taken", offset: start)
            }
            guard case let .binary(data) = try read(depth: depth + 1) else { throw CBORError(.notTaken, "extension tag over something other than bytes", offset: start) }
            let type = Int8(bitPattern: UInt8(argument - CBORWriter.extensionTagBase))
            if type == -1, let time = MessagePackTimestamp(extensionData: data) { return .timestamp(time) }
            return .extension(type: type, data: data)
        }
    }

    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0 ..< 24: return UInt64(info)
        case 24: return try integer(width: 1)
        case 25: return try integer(width: 2)
        case 26: return try integer(width: 4)
        case 27: return try integer(width: 8)
        case 31: throw CBORError(.notTaken, "indefinite length is not taken", offset: start)
        default: throw CBORError(.notTaken, "reserved additional information \(info)", offset: start)
        }
    }

    /// An element count no larger than the bytes left (each element takes at least one).
    private func count(_ argument: UInt64, at start: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(bytes.count - offset) else { throw CBORError(.malformed, "\(argument) elements but \(bytes.count - offset) bytes left", offset: start) }
        return Int(argument)
    }

    private mutating func take(_ length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(bytes.count - offset) else { throw CBORError(.malformed, "\(length) bytes but \(bytes.count - offset) left", offset: start) }
        defer { offset += Int(length) }
        return Array(bytes[offset ..< offset + Int(length)])
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw CBORError(.unexpectedEnd, "unexpected end", offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func integer(width: Int) throws(CBORError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0 ..< width { value = value << 8 | UInt64(try byte()) }
        return value
    }

    /// IEEE 754 binary16 widened to a double.
    static func half(_ bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int(bits >> 10 & 0x1F)
        let fraction = Double(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}
