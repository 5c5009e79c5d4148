import LowbandMessagePack

/// A JSON payload encoded by a user's schema as Python's
/// `json_format.ParseDict(payload, Message()).SerializeToString()` encodes it (proto3's JSON
/// mapping): fields by JSON name or proto name, in field-number order; zero values of fields
/// without presence left out; 64-bit integers as numbers or strings; enums by name or number;
/// bytes as base64; repeated scalars packed (proto3); map entries with key and value always
/// written; `null` leaves a field unset, except that a Value field given `null` is NullValue
/// and a NullValue field is 0 (as ParseDict does); the wrapper types as their bare values.
///
/// The other well-known types take their JSON forms (``ProtoWellKnown``): Timestamp and
/// Duration strings read as Python reads them (``ProtoTime``), FieldMask's camelCase paths in
/// snake_case, Struct / Value / ListValue from any JSON, Any by its `@type` resolved in the
/// schema's descriptor set, Empty as `{}`.
struct ProtoEncoder: Sendable {
    let schema: ProtoSchema
    /// The top message's full name.
    let message: String

    /// A payload the schema cannot encode: the JSON path and what was wrong.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    static let wrappers: [String: ProtoSchema.Kind] = [
        ".google.protobuf.DoubleValue": .double, ".google.protobuf.FloatValue": .float, ".google.protobuf.Int64Value": .int64,
        ".google.protobuf.UInt64Value": .uint64, ".google.protobuf.Int32Value": .int32, ".google.protobuf.UInt32Value": .uint32,
        ".google.protobuf.BoolValue": .bool, ".google.protobuf.StringValue": .string, ".google.protobuf.BytesValue": .bytes,
    ]

    func encode(_ value: MessagePackValue) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        try write(value, as: message, path: "", depth: 1, into: &out)
        return out
    }

    /// Python's json_format refuses messages nested deeper than this (`max_recursion_depth`).
    static let depthLimit = 100

    /// `value` as the body of message `typeName`, `depth` messages deep as json_format counts
    /// (the top message is 1).
    func write(_ value: MessagePackValue, as typeName: String, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        try Self.checkDepth(depth, path: path)
        if let kind = Self.wrappers[typeName] {
            let field = ProtoSchema.Field(name: "value", jsonName: "value", number: 1, kind: kind, repeated: false, typeName: "", explicitPresence: false, packed: false)
            return try writeSingle(value, field, path: path, depth: depth, into: &out)
        }
        if let known = ProtoWellKnown(rawValue: typeName) { return try writeWellKnown(value, known, path: path, depth: depth, into: &out) }
        guard let type = schema.messages[typeName] else { throw Failure(path: path, message: "no message \(typeName) in the schema") }
        // json_format iterates the value for field names: an empty list or string is an empty message.
        if value == .array([]) || value == .string("") { return }
        guard case let .map(entries) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where message \(typeName.dropFirst()) is declared") }
        try writeFields(entries, of: type, path: path, depth: depth, into: &out)
    }

    /// The fields of message `type` given as `entries` (JSON name or proto name to value).
    func writeFields(_ entries: [(key: MessagePackValue, value: MessagePackValue)], of type: ProtoSchema.Message, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        var given: [Int: MessagePackValue] = [:]
        for (key, item) in entries {
            guard case let .string(name) = key else { throw Failure(path: path, message: "a key that is not a string") }
            guard let index = type.fields.firstIndex(where: { $0.jsonName == name || $0.name == name }) else {
                throw Failure(path: Self.join(path, name), message: "no field \(name) in \(type.fullName.dropFirst())")
            }
            var item = item
            // As ParseDict: a field named twice (`fooBar` and `foo_bar`, or one key twice, which
            // Python's json keeps the last of) takes its last value, and null clears it.
            if case .nil = item {
                guard ProtoWellKnown.takesNull(type.fields[index]) else {
                    given[index] = nil
                    continue
                }
                if type.fields[index].kind == .enumeration { item = .int(0) }
            }
            // A second member of one oneof is refused, and so is a member named twice (a null
            // member is not set).
            if let oneof = type.fields[index].oneof, let other = given.keys.first(where: { type.fields[$0].oneof == oneof }) {
                throw Failure(
                    path: Self.join(path, name),
                    message: other == index
                        ? "the field is given twice, and it is a member of a oneof"
                        : "\(type.fields[other].jsonName) is already given, and both are members of one oneof")
            }
            given[index] = item
        }
        for (index, field) in type.fields.enumerated() {
            guard let item = given[index] else { continue }
            try writeField(item, field, path: Self.join(path, field.jsonName), depth: depth, into: &out)
        }
    }

    private func writeField(_ value: MessagePackValue, _ field: ProtoSchema.Field, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        if field.kind == .message, let entry = schema.messages[field.typeName], entry.isMapEntry {
            guard case let .map(pairs) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where a map is declared") }
            for (key, item) in pairs {
                guard case let .string(text) = key, entry.fields.count == 2 else { throw Failure(path: path, message: "a map key that is not a string") }
                let itemPath = "\(path)[\"\(text)\"]"
                var body: [UInt8] = []
                var keyField = entry.fields[0]
                var valueField = entry.fields[1]
                keyField.explicitPresence = true
                valueField.explicitPresence = true
                try writeSingle(try Self.mapKey(text, keyField.kind, path: itemPath), keyField, path: itemPath, depth: depth, into: &body)
                if case .nil = item, valueField.typeName != ProtoWellKnown.value.rawValue { throw Failure(path: itemPath, message: "null as a map value") }
                try writeSingle(item, valueField, path: itemPath, depth: depth, into: &body)
                ProtoWire.appendTag(field.number, ProtoWire.lengthDelimited, to: &out)
                ProtoWire.appendVarint(UInt64(body.count), to: &out)
                out.append(contentsOf: body)
            }
            return
        }
        guard field.repeated else { return try writeSingle(value, field, path: path, depth: depth, into: &out) }
        guard case let .array(elements) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where a repeated \(Self.name(field)) is declared") }
        if field.packed {
            guard !elements.isEmpty else { return }
            var body: [UInt8] = []
            for (index, element) in elements.enumerated() { try writeScalar(element, field, path: "\(path)[\(index)]", into: &body) }
            ProtoWire.appendTag(field.number, ProtoWire.lengthDelimited, to: &out)
            ProtoWire.appendVarint(UInt64(body.count), to: &out)
            out.append(contentsOf: body)
            return
        }
        var single = field
        single.explicitPresence = true
        for (index, element) in elements.enumerated() {
            if case .nil = element, field.typeName != ProtoWellKnown.value.rawValue { throw Failure(path: "\(path)[\(index)]", message: "null in a repeated field") }
            try writeSingle(element, single, path: "\(path)[\(index)]", depth: depth, into: &out)
        }
    }

    /// One value with its tag; a field without presence leaves out its zero value.
    private func writeSingle(_ value: MessagePackValue, _ field: ProtoSchema.Field, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        switch field.kind {
        case .message:
            var body: [UInt8] = []
            try write(value, as: field.typeName, path: path, depth: depth + 1, into: &body)
            ProtoWire.appendTag(field.number, ProtoWire.lengthDelimited, to: &out)
            ProtoWire.appendVarint(UInt64(body.count), to: &out)
            out.append(contentsOf: body)
        case .string, .bytes:
            let bytes: [UInt8]
            if field.kind == .string {
                guard case let .string(text) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where string is declared") }
                bytes = Array(text.utf8)
            } else {
                bytes = try Self.bytes(value, path: path)
            }
            guard field.explicitPresence || !bytes.isEmpty else { return }
            ProtoWire.appendTag(field.number, ProtoWire.lengthDelimited, to: &out)
            ProtoWire.appendVarint(UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        case .group:
            throw Failure(path: path, message: "groups are not taken")
        default:
            var body: [UInt8] = []
            let bits = try writeScalar(value, field, path: path, into: &body)
            guard field.explicitPresence || bits != 0 else { return }
            ProtoWire.appendTag(field.number, Self.wireType(field.kind), to: &out)
            out.append(contentsOf: body)
        }
    }

    /// A numeric, bool or enum value without its tag; returns its bits (0: the zero value).
    @discardableResult
    private func writeScalar(_ value: MessagePackValue, _ field: ProtoSchema.Field, path: String, into out: inout [UInt8]) throws(Failure) -> UInt64 {
        let mismatch = Failure(path: path, message: "\(Self.describe(value)) where \(Self.name(field)) is declared")
        let bits: UInt64
        switch field.kind {
        case .bool:
            guard case let .bool(flag) = value else { throw mismatch }
            bits = flag ? 1 : 0
            ProtoWire.appendVarint(bits, to: &out)
        case .double, .float:
            guard let number = Self.double(value) else { throw mismatch }
            if field.kind == .double {
                bits = number.bitPattern
                ProtoWire.appendFixed(bits, width: 8, to: &out)
            } else {
                guard !number.isFinite || abs(number) <= Double(Float.greatestFiniteMagnitude) else { throw Failure(path: path, message: "\(number) is out of float's range") }
                bits = UInt64(Float(number).bitPattern)
                ProtoWire.appendFixed(bits, width: 4, to: &out)
            }
        case .enumeration:
            let number: Int64
            if case let .string(name) = value {
                guard let known = schema.enums[field.typeName]?[name] else { throw Failure(path: path, message: "\(name) is not a value of enum \(field.typeName.dropFirst())") }
                number = Int64(known)
            } else {
                guard let integer = Self.integer(value), let narrow = Int32(exactly: integer) else { throw mismatch }
                number = Int64(narrow)
            }
            bits = UInt64(bitPattern: number)
            ProtoWire.appendVarint(bits, to: &out)
        default:
            let (low, high): (Int64, UInt64) = switch field.kind {
            case .int32, .sint32, .sfixed32: (Int64(Int32.min), UInt64(Int32.max))
            case .uint32, .fixed32: (0, UInt64(UInt32.max))
            case .uint64, .fixed64: (0, UInt64.max)
            default: (Int64.min, UInt64(Int64.max))
            }
            guard let wide = Self.wideInteger(value) else { throw mismatch }
            switch wide {
            case let .signed(integer) where integer >= low && (integer < 0 || UInt64(integer) <= high): bits = UInt64(bitPattern: integer)
            case let .unsigned(integer) where integer <= high: bits = integer
            default: throw Failure(path: path, message: "\(wide) is out of \(Self.name(field))'s range")
            }
            switch field.kind {
            case .sint32, .sint64:
                let signed = Int64(bitPattern: bits)
                ProtoWire.appendVarint(UInt64(bitPattern: (signed << 1) ^ (signed >> 63)), to: &out)
            case .fixed32, .sfixed32: ProtoWire.appendFixed(bits, width: 4, to: &out)
            case .fixed64, .sfixed64: ProtoWire.appendFixed(bits, width: 8, to: &out)
            default: ProtoWire.appendVarint(bits, to: &out)
            }
        }
        return bits
    }

    static func checkDepth(_ depth: Int, path: String) throws(Failure) {
        guard depth <= depthLimit else {
            throw Failure(path: path, message: "messages nested deeper than \(depthLimit) (Python's json_format refuses them)")
        }
    }

    static func wireType(_ kind: ProtoSchema.Kind) -> UInt64 {
        switch kind {
        case .double, .fixed64, .sfixed64: ProtoWire.fixed64
        case .float, .fixed32, .sfixed32: ProtoWire.fixed32
        default: ProtoWire.varint
        }
    }

    enum Wide: CustomStringConvertible {
        case signed(Int64)
        case unsigned(UInt64)
        var description: String {
            switch self {
            case let .signed(value): String(value)
            case let .unsigned(value): String(value)
            }
        }
    }

    /// An integer from a number or a decimal string (as proto3's JSON allows for every integer type).
    static func wideInteger(_ value: MessagePackValue) -> Wide? {
        switch value {
        case let .int(number): return .signed(number)
        case let .uint(number): return .unsigned(number)
        case let .double(number): return Int64(exactly: number).map(Wide.signed) ?? UInt64(exactly: number).map(Wide.unsigned)
        case let .string(text): return Int64(text).map(Wide.signed) ?? UInt64(text).map(Wide.unsigned)
        default: return nil
        }
    }

    static func integer(_ value: MessagePackValue) -> Int64? {
        if case let .signed(number) = wideInteger(value) { return number }
        return nil
    }

    static func double(_ value: MessagePackValue) -> Double? {
        switch value {
        case let .int(number): return Double(number)
        case let .uint(number): return Double(number)
        case let .double(number): return number
        case let .float(number): return Double(number)
        case let .string(text):
            switch text {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: return Double(text)
            }
        default: return nil
        }
    }

    static func bytes(_ value: MessagePackValue, path: String) throws(Failure) -> [UInt8] {
        if case let .binary(data) = value { return data }
        guard case let .string(text) = value, let data = ProtoBase64.decode(text) else {
            throw Failure(path: path, message: "\(describe(value)) where bytes (base64) is declared")
        }
        return data
    }

    static func mapKey(_ text: String, _ kind: ProtoSchema.Kind, path: String) throws(Failure) -> MessagePackValue {
        switch kind {
        case .string: return .string(text)
        case .bool:
            guard text == "true" || text == "false" else { throw Failure(path: path, message: "a map key \(text) where bool is declared") }
            return .bool(text == "true")
        default: return .string(text)
        }
    }

    static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    static func name(_ field: ProtoSchema.Field) -> String {
        switch field.kind {
        case .enumeration: "enum \(field.typeName.dropFirst())"
        case .message: "message \(field.typeName.dropFirst())"
        case .group: "group"
        default: "\(field.kind)"
        }
    }

    static func describe(_ value: MessagePackValue) -> String {
        switch value {
        case .nil: "null"
        case .bool: "a boolean"
        case .int, .uint, .double, .float: "a number"
        case .string: "a string"
        case .array: "an array"
        case .map: "an object"
        default: "a non-JSON value"
        }
    }
}
