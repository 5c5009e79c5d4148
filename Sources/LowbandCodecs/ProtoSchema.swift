/// The messages and enums of a user's `.proto`, read from the `FileDescriptorSet` that
/// `protoc --descriptor_set_out --include_imports` writes (descriptor.proto's own fields).
///
/// protoc, not a parser of our own: it resolves imports and type names, and its messages are
/// the ones the user knows when a schema does not compile.
package struct ProtoSchema: Sendable {
    /// A field's type, as descriptor.proto numbers them.
    enum Kind: Int, Sendable {
        case double = 1, float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32, enumeration, sfixed32, sfixed64, sint32, sint64
    }

    struct Field: Sendable {
        var name: String
        var jsonName: String
        var number: Int
        var kind: Kind
        var repeated: Bool
        /// The message or enum type's full name (`.pkg.Message`), for those kinds.
        var typeName: String
        /// Written even when zero: a message, a oneof member, proto3 `optional`, proto2.
        var explicitPresence: Bool
        var packed: Bool
        /// The index of the oneof the field is a member of; nil outside one and for proto3
        /// `optional` (a synthetic oneof of one).
        var oneof: Int? = nil
    }

    struct Message: Sendable {
        var fullName: String
        var fields: [Field]
        /// A map field's entry type (`key` 1, `value` 2).
        var isMapEntry: Bool
    }

    /// Messages by full name (`.pkg.Message`).
    var messages: [String: Message] = [:]
    /// Enum values by the enum's full name, then by value name.
    var enums: [String: [String: Int32]] = [:]

    /// A failure: what was wrong.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// In words.
        package var description: String
    }

    /// The schema in a serialized `FileDescriptorSet`.
    package init(descriptorSet: [UInt8]) throws(Failure) {
        do {
            var reader = ProtoWire.Reader(descriptorSet[...])
            while let file = try reader.next() {
                if file.number == 1 { try readFile(file.bytes) }
            }
        } catch {
            throw Failure(description: "not a FileDescriptorSet: \(error)")
        }
    }

    /// The full name of the message called `name` (`Message`, `pkg.Message` or `.pkg.Message`).
    ///
    /// - Throws: ``Failure`` listing the messages the schema has.
    package func messageName(_ name: String) throws(Failure) -> String {
        let wanted = name.hasPrefix(".") ? name : "." + name
        if messages[wanted] != nil { return wanted }
        let matches = messages.keys.filter { $0.hasSuffix(wanted) && !(messages[$0]?.isMapEntry ?? true) }.sorted()
        if matches.count == 1 { return matches[0] }
        let names = messages.filter { !$0.value.isMapEntry }.keys.map { String($0.dropFirst()) }.sorted()
        throw Failure(description: matches.isEmpty
            ? "no message \(name) in the schema; it has \(names.joined(separator: ", "))"
            : "\(name) is ambiguous: \(matches.map { String($0.dropFirst()) }.joined(separator: ", "))")
    }

    private mutating func readFile(_ bytes: ArraySlice<UInt8>) throws(ProtoWire.Failure) {
        var package = ""
        var syntax = "proto2"
        var messageBodies: [ArraySlice<UInt8>] = []
        var enumBodies: [ArraySlice<UInt8>] = []
        var reader = ProtoWire.Reader(bytes)
        while let field = try reader.next() {
            switch field.number {
            case 2: package = String(decoding: field.bytes, as: UTF8.self)
            case 4: messageBodies.append(field.bytes)
            case 5: enumBodies.append(field.bytes)
            case 12: syntax = String(decoding: field.bytes, as: UTF8.self)
            default: break
            }
        }
        let scope = package.isEmpty ? "" : "." + package
        for body in enumBodies { try readEnum(body, scope: scope) }
        for body in messageBodies { try readMessage(body, scope: scope, proto3: syntax == "proto3") }
    }

    private mutating func readEnum(_ bytes: ArraySlice<UInt8>, scope: String) throws(ProtoWire.Failure) {
        var name = ""
        var values: [String: Int32] = [:]
        var reader = ProtoWire.Reader(bytes)
        while let field = try reader.next() {
            if field.number == 1 { name = String(decoding: field.bytes, as: UTF8.self) }
            guard field.number == 2 else { continue }
            var valueName = ""
            var number: Int32 = 0
            var inner = ProtoWire.Reader(field.bytes)
            while let part = try inner.next() {
                if part.number == 1 { valueName = String(decoding: part.bytes, as: UTF8.self) }
                if part.number == 2 { number = Int32(truncatingIfNeeded: part.integer) }
            }
            values[valueName] = number
        }
        enums[scope + "." + name] = values
    }

    private mutating func readMessage(_ bytes: ArraySlice<UInt8>, scope: String, proto3: Bool) throws(ProtoWire.Failure) {
        var message = Message(fullName: "", fields: [], isMapEntry: false)
        var fieldBodies: [ArraySlice<UInt8>] = []
        var nested: [ArraySlice<UInt8>] = []
        var nestedEnums: [ArraySlice<UInt8>] = []
        var reader = ProtoWire.Reader(bytes)
        while let field = try reader.next() {
            switch field.number {
            case 1: message.fullName = scope + "." + String(decoding: field.bytes, as: UTF8.self)
            case 2: fieldBodies.append(field.bytes)
            case 3: nested.append(field.bytes)
            case 4: nestedEnums.append(field.bytes)
            case 7:
                var options = ProtoWire.Reader(field.bytes)
                while let option = try options.next() {
                    if option.number == 7 { message.isMapEntry = option.integer != 0 }
                }
            default: break
            }
        }
        for body in fieldBodies { message.fields.append(try Self.readField(body, proto3: proto3)) }
        message.fields.sort { $0.number < $1.number }
        messages[message.fullName] = message
        for body in nestedEnums { try readEnum(body, scope: message.fullName) }
        for body in nested { try readMessage(body, scope: message.fullName, proto3: proto3) }
    }

    private static func readField(_ bytes: ArraySlice<UInt8>, proto3: Bool) throws(ProtoWire.Failure) -> Field {
        var field = Field(name: "", jsonName: "", number: 0, kind: .int32, repeated: false, typeName: "", explicitPresence: !proto3, packed: false)
        var packedOption: Bool?
        var proto3Optional = false
        var reader = ProtoWire.Reader(bytes)
        while let part = try reader.next() {
            switch part.number {
            case 1: field.name = String(decoding: part.bytes, as: UTF8.self)
            case 3: field.number = Int(part.integer)
            case 4: field.repeated = part.integer == 3
            case 5: field.kind = Kind(rawValue: Int(part.integer)) ?? .group
            case 6: field.typeName = String(decoding: part.bytes, as: UTF8.self)
            case 8:
                var options = ProtoWire.Reader(part.bytes)
                while let option = try options.next() {
                    if option.number == 2 { packedOption = option.integer != 0 }
                }
            case 9:
                field.explicitPresence = true
                field.oneof = Int(part.integer)
            case 17:
                field.explicitPresence = true
                proto3Optional = part.integer != 0
            case 10: field.jsonName = String(decoding: part.bytes, as: UTF8.self)
            default: break
            }
        }
        if field.kind == .message { field.explicitPresence = true }
        // proto3 `optional` is a oneof of one, which ParseDict does not hold to oneof rules.
        if proto3Optional { field.oneof = nil }
        if field.jsonName.isEmpty { field.jsonName = field.name }
        let scalar = ![.string, .bytes, .message, .group].contains(field.kind)
        field.packed = field.repeated && scalar && (packedOption ?? proto3)
        return field
    }
}
