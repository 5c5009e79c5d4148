import LowbandMessagePack

/// The well-known types read back into their JSON forms, as Python's `MessageToDict` writes
/// them, so that what is decoded encodes again to the same bytes.
extension ProtoDecoder {
    func decodeWellKnown(_ bytes: ArraySlice<UInt8>, _ known: ProtoWellKnown) throws -> MessagePackValue {
        var reader = ProtoWire.Reader(bytes)
        switch known {
        case .timestamp, .duration:
            var seconds: Int64 = 0
            var nanos: Int32 = 0
            while let field = try reader.next() {
                if field.number == 1 { seconds = Int64(bitPattern: field.integer) }
                if field.number == 2 { nanos = Int32(truncatingIfNeeded: field.integer) }
            }
            let text = known == .timestamp ? ProtoTime.timestampText(seconds: seconds, nanos: nanos) : ProtoTime.durationText(seconds: seconds, nanos: nanos)
            guard let text else { throw Failure(description: "\(known.rawValue.dropFirst()) \(seconds) s \(nanos) ns is out of range") }
            return .string(text)
        case .fieldMask:
            var paths: [String] = []
            while let field = try reader.next() {
                guard field.number == 1 else { continue }
                paths.append(Self.camelCase(String(decoding: field.bytes, as: UTF8.self)))
            }
            return .string(paths.joined(separator: ","))
        case .structure:
            var entries: [(key: MessagePackValue, value: MessagePackValue)] = []
            while let field = try reader.next() {
                guard field.number == 1 else { continue }
                var key = ""
                var value: MessagePackValue = .nil
                var entry = ProtoWire.Reader(field.bytes)
                while let part = try entry.next() {
                    if part.number == 1 { key = String(decoding: part.bytes, as: UTF8.self) }
                    if part.number == 2 { value = try decodeWellKnown(part.bytes, .value) }
                }
                entries.append((.string(key), value))
            }
            return .map(entries)
        case .value:
            var value: MessagePackValue = .nil
            while let field = try reader.next() {
                switch field.number {
                case 1: value = .nil
                case 2: value = .double(Double(bitPattern: field.integer))
                case 3: value = .string(String(decoding: field.bytes, as: UTF8.self))
                case 4: value = .bool(field.integer != 0)
                case 5: value = try decodeWellKnown(field.bytes, .structure)
                case 6: value = try decodeWellKnown(field.bytes, .list)
                default: break
                }
            }
            return value
        case .list:
            var elements: [MessagePackValue] = []
            while let field = try reader.next() {
                guard field.number == 1 else { continue }
                elements.append(try decodeWellKnown(field.bytes, .value))
            }
            return .array(elements)
        case .any:
            var url = ""
            var body: ArraySlice<UInt8> = []
            while let field = try reader.next() {
                if field.number == 1 { url = String(decoding: field.bytes, as: UTF8.self) }
                if field.number == 2 { body = field.bytes }
            }
            guard !url.isEmpty || !body.isEmpty else { return .map([]) }
            let name = ProtoWellKnown.typeName(url)
            guard schema.messages[name] != nil else { throw Failure(description: "an Any of \(url), which is not in the schema") }
            let inner = try decode(body, as: name)
            if ProtoWellKnown.isWrappedInAny(name) { return .map([(.string("@type"), .string(url)), (.string("value"), inner)]) }
            guard case let .map(fields) = inner else { return inner }
            return .map([(.string("@type"), .string(url))] + fields)
        }
    }

    /// A FieldMask path in camelCase: each letter after a `_` in upper case.
    static func camelCase(_ path: String) -> String {
        var result = ""
        var afterUnderscore = false
        for scalar in path.unicodeScalars {
            if afterUnderscore {
                result += scalar.properties.uppercaseMapping
                afterUnderscore = false
            } else if scalar == "_" {
                afterUnderscore = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
