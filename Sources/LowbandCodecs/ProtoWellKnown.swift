import LowbandMessagePack

/// The well-known types whose JSON form is not their fields (wrappers aside), as Python's
/// json_format reads them: Timestamp and Duration strings, FieldMask's comma-separated
/// camelCase paths, Struct / Value / ListValue as any JSON, and Any as `@type` with the
/// message's fields (or, for these types and the wrappers, with `value`).
enum ProtoWellKnown: String, Sendable {
    case timestamp = ".google.protobuf.Timestamp"
    case duration = ".google.protobuf.Duration"
    case fieldMask = ".google.protobuf.FieldMask"
    case structure = ".google.protobuf.Struct"
    case value = ".google.protobuf.Value"
    case list = ".google.protobuf.ListValue"
    case any = ".google.protobuf.Any"

    static let nullValue = ".google.protobuf.NullValue"

    /// Whether `typeName`'s JSON form inside an Any is `{"@type": …, "value": …}`.
    static func isWrappedInAny(_ typeName: String) -> Bool {
        ProtoWellKnown(rawValue: typeName) != nil || ProtoEncoder.wrappers[typeName] != nil
    }

    /// The full name (`.pkg.Msg`) an Any's type URL names: what follows its last `/`.
    static func typeName(_ url: String) -> String {
        let scalars = url.unicodeScalars
        let start = scalars.lastIndex(of: "/").map(scalars.index(after:)) ?? scalars.startIndex
        return "." + String(scalars[start...])
    }

    /// Whether a field given `null` is set rather than left unset: a singular Value (to
    /// NullValue) or NullValue field, as ParseDict does.
    static func takesNull(_ field: ProtoSchema.Field) -> Bool {
        !field.repeated && (field.kind == .message && field.typeName == Self.value.rawValue || field.kind == .enumeration && field.typeName == nullValue)
    }
}

extension ProtoEncoder {
    /// `value` as the well-known type `known`, `depth` messages deep (``write(_:as:path:depth:into:)``).
    func writeWellKnown(_ value: MessagePackValue, _ known: ProtoWellKnown, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        try Self.checkDepth(depth, path: path)
        switch known {
        case .timestamp, .duration:
            let name = known == .timestamp ? "Timestamp" : "Duration"
            guard case let .string(text) = value else {
                throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.\(name) (a string) is declared")
            }
            do throws(ProtoTime.Failure) {
                let (seconds, nanos) = try known == .timestamp ? ProtoTime.timestamp(text) : ProtoTime.duration(text)
                Self.appendVarintField(1, UInt64(bitPattern: seconds), to: &out)
                Self.appendVarintField(2, UInt64(bitPattern: Int64(nanos)), to: &out)
            } catch {
                throw Failure(path: path, message: "\"\(text)\" is not a \(name): \(error.reason)")
            }
        case .fieldMask:
            guard case let .string(text) = value else {
                throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.FieldMask (a string) is declared")
            }
            guard !text.isEmpty else { return }
            for camel in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false) {
                var snake = ""
                for scalar in camel {
                    guard scalar != "_" else { throw Failure(path: path, message: "the FieldMask path \"\(String(camel))\" has a _ (paths are camelCase)") }
                    if scalar.properties.isUppercase {
                        snake += "_" + scalar.properties.lowercaseMapping
                    } else {
                        snake.unicodeScalars.append(scalar)
                    }
                }
                Self.appendBytesField(1, Array(snake.utf8), to: &out)
            }
        case .structure:
            guard case let .map(entries) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.Struct (an object) is declared") }
            for (key, item) in entries {
                guard case let .string(name) = key else { throw Failure(path: path, message: "a key that is not a string") }
                var entry: [UInt8] = []
                Self.appendBytesField(1, Array(name.utf8), to: &entry)
                var body: [UInt8] = []
                try writeValue(item, path: "\(path)[\"\(name)\"]", depth: depth + 1, into: &body)
                Self.appendBytesField(2, body, to: &entry)
                Self.appendBytesField(1, entry, to: &out)
            }
        case .value:
            try writeValue(value, path: path, depth: depth, into: &out)
        case .list:
            guard case let .array(elements) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.ListValue (an array) is declared") }
            for (index, element) in elements.enumerated() {
                var body: [UInt8] = []
                try writeValue(element, path: "\(path)[\(index)]", depth: depth + 1, into: &body)
                Self.appendBytesField(1, body, to: &out)
            }
        case .any:
            try writeAny(value, path: path, depth: depth, into: &out)
        }
    }

    /// google.protobuf.Value: `null` is NullValue, a number number_value, and so on; an object
    /// is a Struct and an array a ListValue, at the same path.
    private func writeValue(_ value: MessagePackValue, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        try Self.checkDepth(depth, path: path)
        switch value {
        case .nil: Self.appendVarintField(1, 0, always: true, to: &out)
        case let .bool(flag): Self.appendVarintField(4, flag ? 1 : 0, always: true, to: &out)
        case .int, .uint, .double, .float:
            ProtoWire.appendTag(2, ProtoWire.fixed64, to: &out)
            ProtoWire.appendFixed((Self.double(value) ?? 0).bitPattern, width: 8, to: &out)
        case let .string(text): Self.appendBytesField(3, Array(text.utf8), to: &out)
        case .map, .array:
            var body: [UInt8] = []
            try writeWellKnown(value, value.isMap ? .structure : .list, path: path, depth: depth + 1, into: &body)
            Self.appendBytesField(value.isMap ? 5 : 6, body, to: &out)
        default: throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.Value is declared")
        }
    }

    /// google.protobuf.Any: the message `@type` names (after its last `/`), looked up in the
    /// schema; its fields beside `@type`, or `value` for the types above and the wrappers.
    private func writeAny(_ value: MessagePackValue, path: String, depth: Int, into out: inout [UInt8]) throws(Failure) {
        guard case let .map(entries) = value else { throw Failure(path: path, message: "\(Self.describe(value)) where google.protobuf.Any (an object) is declared") }
        guard !entries.isEmpty else { return }
        guard let type = entries.first(where: { $0.key == .string("@type") })?.value else {
            throw Failure(path: path, message: "an Any without @type")
        }
        guard case let .string(url) = type else { throw Failure(path: Self.join(path, "@type"), message: "\(Self.describe(type)) where a type URL is declared") }
        let name = ProtoWellKnown.typeName(url)
        guard let message = schema.messages[name] else {
            throw Failure(path: Self.join(path, "@type"), message: "\(url) names \(name.dropFirst()), which is not in the schema")
        }
        var body: [UInt8] = []
        if ProtoWellKnown.isWrappedInAny(name) {
            guard let inner = entries.first(where: { $0.key == .string("value") })?.value else {
                throw Failure(path: path, message: "an Any of \(name.dropFirst()) without its value")
            }
            // json_format counts the type's own message, but not a wrapper's.
            try write(inner, as: name, path: Self.join(path, "value"), depth: ProtoEncoder.wrappers[name] == nil ? depth + 1 : depth, into: &body)
        } else {
            try writeFields(entries.filter { $0.key != .string("@type") }, of: message, path: path, depth: depth, into: &body)
        }
        Self.appendBytesField(1, Array(url.utf8), to: &out)
        if !body.isEmpty { Self.appendBytesField(2, body, to: &out) }
    }

    static func appendVarintField(_ number: Int, _ value: UInt64, always: Bool = false, to out: inout [UInt8]) {
        guard always || value != 0 else { return }
        ProtoWire.appendTag(number, ProtoWire.varint, to: &out)
        ProtoWire.appendVarint(value, to: &out)
    }

    static func appendBytesField(_ number: Int, _ bytes: [UInt8], to out: inout [UInt8]) {
        ProtoWire.appendTag(number, ProtoWire.lengthDelimited, to: &out)
        ProtoWire.appendVarint(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }
}

private extension MessagePackValue {
    var isMap: Bool {
        if case .map = self { return true }
        return false
    }
}
