package import LowbandDeterminism
package import LowbandMessagePack

/// A named MessagePack value, so a failing check can say which sample it was.
package struct MessagePackSample: Sendable, CustomStringConvertible {
    package var name: String
    package var value: MessagePackValue

    package init(_ name: String, _ value: MessagePackValue) {
        self.name = name
        self.value = value
    }

    package var description: String { name }
}

/// Seeded random MessagePack values and the edge cases of every format family.
///
/// Tests and benchmarks share these, so a value that broke something once stays in the set.
/// Random values only use string and integer map keys, and keys are unique within a map, so
/// every value also has a faithful form in msgpack-python (whose maps are dicts).
package enum MessagePackSamples {
    /// What the random generator may produce.
    package struct Options: Sendable {
        /// Containers nest at most this deep.
        package var maxDepth: Int
        /// Arrays and maps hold at most this many elements.
        package var maxCount: Int
        /// Strings, binaries and extensions hold at most this many characters or bytes
        /// (now and then a length just past a format boundary is picked instead).
        package var maxLength: Int
        /// Whether `.float` (float32) values appear; msgpack-python widens them to float64.
        package var includeFloat32: Bool
        /// The extension type codes used, except -1 (the timestamp); msgpack-python only accepts 0...127.
        package var extensionTypes: ClosedRange<Int8>

        package init(
            maxDepth: Int = 4,
            maxCount: Int = 8,
            maxLength: Int = 40,
            includeFloat32: Bool = true,
            extensionTypes: ClosedRange<Int8> = 0 ... 127
        ) {
            self.maxDepth = maxDepth
            self.maxCount = maxCount
            self.maxLength = maxLength
            self.includeFloat32 = includeFloat32
            self.extensionTypes = extensionTypes
        }
    }

    /// `count` random values, the same ones for the same seed and options.
    package static func randomValues(count: Int, seed: UInt64, options: Options = Options()) -> [MessagePackValue] {
        var generator = SeededGenerator(seed: seed)
        return (0 ..< count).map { _ in randomValue(using: &generator, options: options) }
    }

    /// One random value of any family, containers included.
    package static func randomValue(using generator: inout SeededGenerator, options: Options = Options(), depth: Int = 0) -> MessagePackValue {
        let containerAllowed = depth < options.maxDepth
        switch Int.random(in: 0 ..< (containerAllowed ? 12 : 9), using: &generator) {
        case 0: return .nil
        case 1: return .bool(Bool.random(using: &generator))
        case 2, 3: return randomInteger(using: &generator)
        case 4:
            if options.includeFloat32, Bool.random(using: &generator) {
                return .float(randomFloat(using: &generator))
            }
            return .double(randomDouble(using: &generator))
        case 5: return .string(randomString(using: &generator, maxLength: options.maxLength))
        case 6: return .binary(randomBytes(using: &generator, maxLength: options.maxLength))
        case 7:
            var type = Int8.random(in: options.extensionTypes, using: &generator)
            if type == MessagePackTimestamp.extensionType {
                let types = options.extensionTypes
                type = type == types.lowerBound ? types.upperBound : types.lowerBound
            }
            return .extension(type: type, data: randomBytes(using: &generator, maxLength: options.maxLength))
        case 8: return .timestamp(randomTimestamp(using: &generator))
        case 9, 10:
            let count = Int.random(in: 0 ... options.maxCount, using: &generator)
            return .array((0 ..< count).map { _ in randomValue(using: &generator, options: options, depth: depth + 1) })
        default:
            let count = Int.random(in: 0 ... options.maxCount, using: &generator)
            var seen: Set<String> = []
            var entries: [(key: MessagePackValue, value: MessagePackValue)] = []
            for _ in 0 ..< count {
                let key = randomKey(using: &generator, maxLength: options.maxLength)
                guard seen.insert(keyIdentity(key)).inserted else { continue }
                entries.append((key, randomValue(using: &generator, options: options, depth: depth + 1)))
            }
            return .map(entries)
        }
    }

    /// An integer from a randomly chosen width, so every int and uint form appears.
    package static func randomInteger(using generator: inout SeededGenerator) -> MessagePackValue {
        switch Int.random(in: 0 ..< 10, using: &generator) {
        case 0: return .int(Int64.random(in: 0 ... 127, using: &generator))
        case 1: return .int(Int64.random(in: -32 ... -1, using: &generator))
        case 2: return .int(Int64.random(in: 128 ... 255, using: &generator))
        case 3: return .int(Int64.random(in: 256 ... 65535, using: &generator))
        case 4: return .int(Int64.random(in: 65536 ... 0xFFFF_FFFF, using: &generator))
        case 5: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... UInt64.max, using: &generator))
        case 6: return .int(Int64.random(in: 0x1_0000_0000 ... Int64.max, using: &generator))
        case 7: return .int(Int64.random(in: -128 ... -33, using: &generator))
        case 8: return .int(Int64.random(in: Int64(Int32.min) ... -129, using: &generator))
        default: return .int(Int64.random(in: Int64.min ... Int64(Int32.min) - 1, using: &generator))
        }
    }

    /// A double: a special value, a short decimal, or any bit pattern (NaN payloads included).
    package static func randomDouble(using generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0 ..< 4, using: &generator) {
        case 0: return [0.0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude].randomElement(using: &generator)!
        case 1: return Double(Int.random(in: -100_000 ... 100_000, using: &generator)) / 100
        default: return Double(bitPattern: generator.next())
        }
    }

    /// A float32: a special value, a short decimal, or any bit pattern.
    package static func randomFloat(using generator: inout SeededGenerator) -> Float {
        switch Int.random(in: 0 ..< 4, using: &generator) {
        case 0: return [Float(0), -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude].randomElement(using: &generator)!
        case 1: return Float(Int.random(in: -10_000 ... 10_000, using: &generator)) / 8
        default: return Float(bitPattern: UInt32.random(in: 0 ... .max, using: &generator))
        }
    }

    /// A string mixing ASCII, Cyrillic, CJK and emoji; now and then one just past a str boundary.
    package static func randomString(using generator: inout SeededGenerator, maxLength: Int) -> String {
        let alphabets: [ClosedRange<UInt32>] = [0x20 ... 0x7e, 0x410 ... 0x44f, 0x4e00 ... 0x4fff, 0x1f600 ... 0x1f64f, 0xa0 ... 0x7ff]
        var scalars = String.UnicodeScalarView()
        let length = randomLength(using: &generator, maxLength: maxLength)
        while scalars.count < length {
            let alphabet = alphabets.randomElement(using: &generator)!
            scalars.append(Unicode.Scalar(UInt32.random(in: alphabet, using: &generator))!)
        }
        return String(scalars)
    }

    /// Random bytes; now and then a length just past a bin or ext boundary.
    package static func randomBytes(using generator: inout SeededGenerator, maxLength: Int) -> [UInt8] {
        let length = randomLength(using: &generator, maxLength: maxLength)
        return (0 ..< length).map { _ in UInt8.random(in: 0 ... .max, using: &generator) }
    }

    /// A timestamp in the 32-, 64- or 96-bit range, negative seconds included.
    package static func randomTimestamp(using generator: inout SeededGenerator) -> MessagePackTimestamp {
        let nanoseconds = Bool.random(using: &generator) ? 0 : UInt32.random(in: 0 ..< 1_000_000_000, using: &generator)
        let seconds: Int64 = switch Int.random(in: 0 ..< 4, using: &generator) {
        case 0: Int64.random(in: 0 ... 0xFFFF_FFFF, using: &generator)
        case 1: Int64.random(in: 0 ... 0x3_FFFF_FFFF, using: &generator)
        case 2: Int64.random(in: -62_135_596_800 ... 253_402_300_799, using: &generator)
        default: Int64.random(in: .min ... .max, using: &generator)
        }
        return MessagePackTimestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    private static func randomKey(using generator: inout SeededGenerator, maxLength: Int) -> MessagePackValue {
        switch Int.random(in: 0 ..< 3, using: &generator) {
        case 0: return randomInteger(using: &generator)
        default: return .string(randomString(using: &generator, maxLength: min(maxLength, 12)))
        }
    }

    private static func keyIdentity(_ key: MessagePackValue) -> String {
        switch key {
        case let .int(number): "i\(number)"
        case let .uint(number): "i\(number)"
        case let .string(text): "s\(text)"
        default: "?"
        }
    }

    private static func randomLength(using generator: inout SeededGenerator, maxLength: Int) -> Int {
        if Int.random(in: 0 ..< 50, using: &generator) == 0 {
            return [31, 32, 255, 256, 257].randomElement(using: &generator)!
        }
        return Int.random(in: 0 ... maxLength, using: &generator)
    }
}

extension MessagePackSamples {
    /// Every format boundary and awkward value the MessagePack spec has, named.
    ///
    /// All are accepted by msgpack-python (extension types are 0...127 and map keys unique).
    package static let edgeCases: [MessagePackSample] = scalarEdgeCases + lengthEdgeCases + timestampEdgeCases + containerEdgeCases

    /// nil, bools, each integer width boundary and the awkward floats.
    package static let scalarEdgeCases: [MessagePackSample] = {
        var samples = [MessagePackSample("nil", .nil), MessagePackSample("true", true), MessagePackSample("false", false)]
        let unsigned: [UInt64] = [0, 1, 127, 128, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max]
        for number in unsigned {
            samples.append(MessagePackSample("uint \(number)", number <= UInt64(Int64.max) ? .int(Int64(number)) : .uint(number)))
        }
        let signed: [Int64] = [-1, -32, -33, -128, -129, -32768, -32769, Int64(Int32.min), Int64(Int32.min) - 1, Int64.min]
        for number in signed {
            samples.append(MessagePackSample("int \(number)", .int(number)))
        }
        let doubles: [Double] = [0, -0.0, 1, -1.5, .pi, .nan, -.nan, Double(bitPattern: 0x7ff4_0000_0000_0001), .infinity, -.infinity,
                                 .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1e-300, 9_007_199_254_740_994]
        for number in doubles {
            samples.append(MessagePackSample("float64 \(number) (0x\(String(number.bitPattern, radix: 16)))", .double(number)))
        }
        let floats: [Float] = [0, -0.0, 1, -1.5, .pi, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 16_777_218]
        for number in floats {
            samples.append(MessagePackSample("float32 \(number) (0x\(String(number.bitPattern, radix: 16)))", .float(number)))
        }
        return samples
    }()

    /// str, bin and ext at every length boundary, and non-ASCII strings.
    package static let lengthEdgeCases: [MessagePackSample] = {
        var samples: [MessagePackSample] = []
        for length in [0, 1, 31, 32, 255, 256, 65535, 65536] {
            samples.append(MessagePackSample("str of \(length) bytes", .string(String(repeating: "x", count: length))))
            samples.append(MessagePackSample("bin of \(length) bytes", .binary(patternBytes(length))))
        }
        for length in [0, 1, 2, 3, 4, 8, 16, 17, 255, 256, 65535, 65536] {
            samples.append(MessagePackSample("ext 7 of \(length) bytes", .extension(type: 7, data: patternBytes(length))))
        }
        samples.append(MessagePackSample("ext 0 of 4 bytes", .extension(type: 0, data: [1, 2, 3, 4])))
        samples.append(MessagePackSample("ext 127 of 1 byte", .extension(type: 127, data: [0xff])))
        samples.append(MessagePackSample("Cyrillic", "Привет, мир! Съешь же ещё этих мягких французских булок"))
        samples.append(MessagePackSample("CJK", "你好，世界。日本語のテキスト、한국어"))
        samples.append(MessagePackSample("emoji", "👍🏽 👨‍👩‍👧‍👦 🇺🇦 🏳️‍🌈 😀"))
        samples.append(MessagePackSample("mixed scripts of 40 bytes", .string(String(repeating: "ё", count: 20))))
        samples.append(MessagePackSample("NUL and controls", "a\u{0}b\u{7f}\u{1b}"))
        samples.append(MessagePackSample("decomposed é (NFD) next to composed é (NFC)", "cafe\u{301} café"))
        samples.append(MessagePackSample("U+FFFF and U+10FFFF", "\u{FFFF}\u{10FFFF}"))
        return samples
    }()

    /// Timestamps at the 32/64/96-bit boundaries and in the years 1, 1969, 2038, 2106, 2514, 9999.
    package static let timestampEdgeCases: [MessagePackSample] = {
        let seconds: [(String, Int64)] = [
            ("epoch", 0),
            ("year 1", -62_135_596_800),
            ("year 1969", -31_536_000),
            ("one second before the epoch", -1),
            ("year 2038 (2^31 - 1)", 2_147_483_647),
            ("year 2038 (2^31)", 2_147_483_648),
            ("year 2106 (2^32 - 1)", 4_294_967_295),
            ("year 2106 (2^32)", 4_294_967_296),
            ("year 2514 (2^34 - 1)", 17_179_869_183),
            ("year 2514 (2^34)", 17_179_869_184),
            ("year 9999", 253_402_300_799),
            ("Int64.max seconds", .max),
            ("Int64.min seconds", .min),
        ]
        var samples: [MessagePackSample] = []
        for (name, second) in seconds {
            for nanoseconds: UInt32 in [0, 1, 500_000_000, 999_999_999] {
                samples.append(MessagePackSample("timestamp \(name) + \(nanoseconds) ns", .timestamp(MessagePackTimestamp(seconds: second, nanoseconds: nanoseconds))))
            }
        }
        return samples
    }()

    /// Array and map length boundaries, and nested empty containers.
    package static let containerEdgeCases: [MessagePackSample] = {
        var samples: [MessagePackSample] = [
            MessagePackSample("empty array", []),
            MessagePackSample("empty map", [:]),
            MessagePackSample("array of empty containers", [[], [:], [[]], [[:]], [[[]]]]),
            MessagePackSample("map of empty containers", ["a": [], "b": [:], "c": ["d": [:]], "": [[]]]),
            MessagePackSample("integer and string keys", [1: "int", "1": "str", -1: "negative", .uint(UInt64.max): "huge"]),
        ]
        for count in [1, 15, 16, 255, 256, 65535, 65536] {
            samples.append(MessagePackSample("array of \(count)", .array((0 ..< count).map { .int(Int64($0 % 300) - 40) })))
            samples.append(MessagePackSample("map of \(count)", .map((0 ..< count).map { (key: .int(Int64($0)), value: .int(Int64($0 % 7))) })))
        }
        samples.append(MessagePackSample("map of 20 string keys", .map((0 ..< 20).map { (key: .string("key\($0)"), value: .string("v\($0)")) })))
        return samples
    }()

    /// Bytes 0, 1, 2, … 255, 0, 1, … of the given length.
    package static func patternBytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0) }
    }
}

extension MessagePackValue {
    /// The value msgpack-python hands back for this one: every float32 widened to float64.
    package var widenedFloats: MessagePackValue {
        switch self {
        case let .float(number): .double(Double(number))
        case let .array(elements): .array(elements.map(\.widenedFloats))
        case let .map(entries): .map(entries.map { (key: $0.key.widenedFloats, value: $0.value.widenedFloats) })
        default: self
        }
    }
}

extension MessagePackSamples {
    /// A messenger sync payload like the ones Lowband ships: chats with members and messages.
    ///
    /// Map keys are short strings in a fixed order; messages hold text in several scripts,
    /// timestamps, optional attachments (bin) and reaction counts: about 200 bytes per message,
    /// so `messengerSync(chats: 2, messagesPerChat: 125, seed:)` is about 50 KB.
    package static func messengerSync(chats: Int, messagesPerChat: Int, seed: UInt64) -> MessagePackValue {
        var generator = SeededGenerator(seed: seed)
        let texts = ["Привет! Как дела?", "ok", "See you at 7 👍", "明天见", "Can you send the file again? The previous one was cut off.",
                     "Ага, понял", "🎉🎉🎉", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor."]
        var chatValues: [MessagePackValue] = []
        var now: Int64 = 1_700_000_000
        for chatIndex in 0 ..< chats {
            let members = (0 ..< Int.random(in: 2 ... 12, using: &generator)).map { _ in MessagePackValue.int(Int64.random(in: 1 ... 5_000_000, using: &generator)) }
            var messages: [MessagePackValue] = []
            for messageIndex in 0 ..< messagesPerChat {
                now += Int64.random(in: 1 ... 600, using: &generator)
                var entries: [(key: MessagePackValue, value: MessagePackValue)] = [
                    ("id", .int(Int64(chatIndex * 100_000 + messageIndex))),
                    ("from", members.randomElement(using: &generator)!),
                    ("text", .string(texts.randomElement(using: &generator)!)),
                    ("sent", .timestamp(MessagePackTimestamp(seconds: now, nanoseconds: UInt32.random(in: 0 ..< 1_000_000_000, using: &generator)))),
                    ("edited", Bool.random(using: &generator) ? .nil : .timestamp(MessagePackTimestamp(seconds: now + 30))),
                ]
                if Int.random(in: 0 ..< 4, using: &generator) == 0 {
                    entries.append(("attachment", [
                        "name": "photo.jpg",
                        "size": .int(Int64.random(in: 10_000 ... 3_000_000, using: &generator)),
                        "thumb": .binary((0 ..< Int.random(in: 100 ... 700, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }),
                    ]))
                }
                entries.append(("reactions", .map(["👍", "❤️", "😂"].prefix(Int.random(in: 0 ... 3, using: &generator)).map {
                    (key: .string($0), value: .int(Int64.random(in: 1 ... 40, using: &generator)))
                })))
                messages.append(.map(entries))
            }
            chatValues.append([
                "id": .int(Int64(chatIndex + 1)),
                "title": .string("Chat \(chatIndex) · \(texts[chatIndex % texts.count].prefix(12))"),
                "muted": .bool(chatIndex % 3 == 0),
                "unread": .int(Int64.random(in: 0 ... 300, using: &generator)),
                "members": .array(members),
                "messages": .array(messages),
            ])
        }
        return ["version": 3, "cursor": .uint(UInt64.max - 7), "ratio": .double(0.75), "chats": .array(chatValues)]
    }
}
