import LowbandMessagePack

/// Protobuf bytes read back by the schema into a tree (fields by JSON name, enums as numbers,
/// bytes as binary, map keys as strings, the well-known types in their JSON forms): what a
/// dynamic decoder does, timed as the protobuf format's decode, and encoded again to check the
/// bytes.
struct ProtoDecoder: Sendable {
    let schema: ProtoSchema

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func decode(_ bytes: ArraySlice<UInt8>, as typeName: String) throws -> MessagePackValue {
        if let kind = ProtoEncoder.wrappers[typeName] {
            var reader = ProtoWire.Reader(bytes)
            var value = try zero(kind)
            while let field = try reader.next() {
                if field.number == 1 { value = try scalar(field, kind, typeName: "") }
            }
            return value
        }
        if let known = ProtoWellKnown(rawValue: typeName) { return try decodeWellKnown(bytes, known) }
        guard let type = schema.messages[typeName] else { throw Failure(description: "no message \(typeName)") }
        var values: [Int: MessagePackValue] = [:]
        var reader = ProtoWire.Reader(bytes)
        while let field = try reader.next() {
            guard let index = type.fields.firstIndex(where: { $0.number == field.number }) else { continue }
            let declared = type.fields[index]
            if declared.kind == .message, let entry = schema.messages[declared.typeName], entry.isMapEntry, entry.fields.count == 2 {
                var key: MessagePackValue = .string("")
                var value = try zero(entry.fields[1].kind)
                var inner = ProtoWire.Reader(field.bytes)
                while let part = try inner.next() {
                    if part.number == 1 { key = try scalar(part, entry.fields[0].kind, typeName: "") }
                    if part.number == 2 { value = try single(part, entry.fields[1]) }
                }
                guard case var .map(pairs) = values[index] ?? .map([]) else { continue }
                pairs.append((.string(Self.keyText(key)), value))
                values[index] = .map(pairs)
            } else if declared.repeated {
                guard case var .array(elements) = values[index] ?? .array([]) else { continue }
                if field.wireType == ProtoWire.lengthDelimited, declared.kind != .string, declared.kind != .bytes, declared.kind != .message {
                    var packed = ProtoWire.Reader(field.bytes)
                    while !packed.isAtEnd {
                        let integer: UInt64 = switch ProtoEncoder.wireType(declared.kind) {
                        case ProtoWire.fixed64: try packed.fixed(8)
                        case ProtoWire.fixed32: try packed.fixed(4)
                        default: try packed.varint()
                        }
                        elements.append(try scalar(ProtoWire.Field(number: field.number, wireType: ProtoEncoder.wireType(declared.kind), integer: integer, bytes: []), declared.kind, typeName: declared.typeName))
                    }
                } else {
                    elements.append(try single(field, declared))
                }
                values[index] = .array(elements)
            } else {
                values[index] = try single(field, declared)
            }
        }
        return .map(values.keys.sorted().compactMap { index in values[index].map { (.string(type.fields[index].jsonName), $0) } })
    }

    private func single(_ field: ProtoWire.Field, _ declared: ProtoSchema.Field) throws -> MessagePackValue {
        declared.kind == .message ? try decode(field.bytes, as: declared.typeName) : try scalar(field, declared.kind, typeName: declared.typeName)
    }

    private func scalar(_ field: ProtoWire.Field, _ kind: ProtoSchema.Kind, typeName: String) throws -> MessagePackValue {
        let bits = field.integer
        switch kind {
        case .string: return .string(String(decoding: field.bytes, as: UTF8.self))
        case .bytes: return .binary(Array(field.bytes))
        case .bool: return .bool(bits != 0)
        case .double: return .double(Double(bitPattern: bits))
        case .float: return .double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
        case .int32, .enumeration: return .int(Int64(Int32(truncatingIfNeeded: bits)))
        case .sfixed32: return .int(Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: bits))))
        case .int64, .sfixed64: return .int(Int64(bitPattern: bits))
        case .uint32, .fixed32: return .uint(UInt64(UInt32(truncatingIfNeeded: bits)))
        case .uint64, .fixed64: return .uint(bits)
        case .sint32, .sint64: return .int(Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1))
        case .message, .group: throw Failure(description: "a message where a scalar was expected")
        }
    }

    private func zero(_ kind: ProtoSchema.Kind) throws -> MessagePackValue {
        switch kind {
        case .string: .string("")
        case .bytes: .binary([])
        case .bool: .bool(false)
        case .double, .float: .double(0)
        case .message: .map([])
        default: .int(0)
        }
    }

    static func keyText(_ key: MessagePackValue) -> String {
        switch key {
        case let .string(text): text
        case let .bool(flag): flag ? "true" : "false"
        case let .int(number): String(number)
        case let .uint(number): String(number)
        default: ""
        }
    }
}
