import LowbandMessagePack
import LowbandTestSupport
import Testing

/// JSON text → value → JSON text, and the bytes the parsed value encodes to.
private func assertRoundTrip(_ value: MessagePackValue, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
    let original = try value.encoded()
    for pretty in [false, true] {
        let json = MessagePackJSON.render(value, pretty: pretty)
        let parsed = try MessagePackJSON.parse(json)
        #expect(try parsed.encoded() == original, "\(comment) via \(json.prefix(300))", sourceLocation: sourceLocation)
        #expect(MessagePackJSON.render(parsed, pretty: pretty) == json, "\(comment)", sourceLocation: sourceLocation)
    }
}

/// The error `json` fails with.
private func parseError(_ json: String) -> MessagePackJSONError? {
    do {
        let value = try MessagePackJSON.parse(json)
        Issue.record("\(json.debugDescription) parsed as \(value)")
        return nil
    } catch {
        return error
    }
}

@Suite("MessagePack JSON form")
struct MessagePackJSONTests {
    @Test("every edge case converts back to the same bytes", arguments: MessagePackSamples.edgeCases)
    func edgeCasesRoundTrip(sample: MessagePackSample) throws {
        try assertRoundTrip(sample.value, sample.name)
    }

    @Test("seeded random values convert back to the same bytes")
    func randomValuesRoundTrip() throws {
        let options = MessagePackSamples.Options(maxDepth: 5, extensionTypes: -128 ... 127)
        for (index, value) in MessagePackSamples.randomValues(count: 400, seed: 0x4A53_4F4E, options: options).enumerated() {
            try assertRoundTrip(value, "random value \(index)")
        }
    }

    static let awkwardFloats: [MessagePackValue] = [
        .double(-.nan), .double(Double(bitPattern: 0xfff0_0000_0000_0001)), .float(-.nan), .float(Float(bitPattern: 0x7fa0_0001)),
        .float(0.1), .float(-0.0), .double(.leastNonzeroMagnitude), .double(1e16), .double(123_456_789_012_345_680),
    ]

    static let awkwardStrings: [MessagePackValue] = [
        .string("é vs e\u{301}"), .string("\u{2028}\u{2029}\u{feff}"), .string("tab\there \"quoted\" back\\slash /"),
        .string(String((0 ..< 32).map { Character(Unicode.Scalar(UInt8($0))) })),
    ]

    static let awkwardMaps: [MessagePackValue] = [
        .map([(key: "$ref", value: 1)]),
        .map([(key: "a", value: 1), (key: "a", value: 2)]),
        .map([(key: "e\u{301}", value: 1), (key: "é", value: 2)]),
        .map([(key: .nil, value: .nil), (key: true, value: [1]), (key: .double(1.5), value: [:]), (key: .binary([1]), value: "bin"),
              (key: [1, 2], value: "array"), (key: ["k": "v"], value: "map")]),
        .map([(key: .map([(key: "$x", value: .map([(key: 1, value: 2)]))]), value: .array([.map([(key: "$", value: .nil)])]))]),
    ]

    static let awkwardOthers: [MessagePackValue] = [
        .extension(type: -1, data: [1, 2, 3]), .extension(type: -128, data: []),
        .timestamp(MessagePackTimestamp(seconds: -62_167_219_200)), .timestamp(MessagePackTimestamp(seconds: 253_402_300_800)),
    ]

    @Test("awkward values convert back to the same bytes", arguments: awkwardFloats + awkwardStrings + awkwardMaps + awkwardOthers)
    func awkwardValuesRoundTrip(value: MessagePackValue) throws {
        try assertRoundTrip(value)
    }

    @Test("compact text of each kind")
    func compactText() {
        let cases: [(MessagePackValue, String)] = [
            (.nil, "null"), (true, "true"), (.int(-5), "-5"), (.int(.min), "-9223372036854775808"), (.uint(.max), "18446744073709551615"),
            (.double(1), "1.0"), (.double(-0.0), "-0.0"), (.double(0.1), "0.1"), (.double(1e100), "1e+100"), (.double(2.5e-7), "2.5e-07"),
            (.double(.nan), #"{"$float64":"NaN"}"#), (.double(-.nan), #"{"$float64":"-NaN"}"#),
            (.double(.infinity), #"{"$float64":"Infinity"}"#), (.double(-.infinity), #"{"$float64":"-Infinity"}"#),
            (.double(Double(bitPattern: 0x7ff4_0000_0000_0001)), #"{"$float64":"0x7ff4000000000001"}"#),
            (.float(1.5), #"{"$float32":1.5}"#), (.float(2), #"{"$float32":2.0}"#), (.float(-0.0), #"{"$float32":-0.0}"#),
            (.float(.nan), #"{"$float32":"NaN"}"#), (.float(-.infinity), #"{"$float32":"-Infinity"}"#),
            (.float(Float(bitPattern: 0x7f80_0001)), #"{"$float32":"0x7f800001"}"#),
            ("a\"b\\c\n\t\r\u{8}\u{c}\u{1}\u{7f}/ü😀", "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\u{7f}/ü😀\""),
            (.binary([]), #"{"$bin":""}"#), (.binary([0xff]), #"{"$bin":"/w=="}"#), (.binary([0xfb, 0xff]), #"{"$bin":"+/8="}"#),
            (.binary(Array("foobar".utf8)), #"{"$bin":"Zm9vYmFy"}"#),
            (.extension(type: -3, data: [1, 2, 3, 4]), #"{"$ext":-3,"data":"AQIDBA=="}"#),
            (.timestamp(MessagePackTimestamp(seconds: 2_147_483_648, nanoseconds: 1)),
             #"{"$timestamp":"2038-01-19T03:14:08.000000001Z","seconds":2147483648,"nanoseconds":1}"#),
            ([], "[]"), ([:], "{}"), ([[], [:], [[]]], "[[],{},[[]]]"),
            (["b": 1, "a": [true, .nil]], #"{"b":1,"a":[true,null]}"#),
            ([1: "one", "two": 2], #"{"$map":[[1,"one"],["two",2]]}"#),
            (["$type": "x"], #"{"$map":[["$type","x"]]}"#),
            (.map([("k", 1), ("k", 2)]), #"{"$map":[["k",1],["k",2]]}"#),
        ]
        for (value, json) in cases {
            #expect(MessagePackJSON.render(value) == json)
        }
    }

    @Test("pretty text indents containers and keeps tagged scalars on one line")
    func prettyText() {
        let value: MessagePackValue = [
            "name": "Ada", "tags": [], "blob": .binary([1, 2]), "empty": [:],
            "when": .timestamp(MessagePackTimestamp(seconds: 0, nanoseconds: 5)),
            "ids": [1: ["x": .float(0.5)], 2: [3]],
        ]
        #expect(MessagePackJSON.render(value, pretty: true) == """
        {
          "name": "Ada",
          "tags": [],
          "blob": {"$bin": "AQI="},
          "empty": {},
          "when": {"$timestamp": "1970-01-01T00:00:00.000000005Z", "seconds": 0, "nanoseconds": 5},
          "ids": {
            "$map": [
              [1, {
                "x": {"$float32": 0.5}
              }],
              [2, [
                3
              ]]
            ]
          }
        }
        """)
    }

    @Test("timestamps print as UTC text in every year", arguments: [
        (Int64(0), UInt32(0), "1970-01-01T00:00:00Z"), (-1, 999_999_999, "1969-12-31T23:59:59.999999999Z"),
        (-62_135_596_800, 0, "0001-01-01T00:00:00Z"), (253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
        (951_782_400, 0, "2000-02-29T00:00:00Z"), (1_709_164_800, 500_000_000, "2024-02-29T00:00:00.500000000Z"),
        (-2_208_988_800, 0, "1900-01-01T00:00:00Z"), (1_234_567_890, 0, "2009-02-13T23:31:30Z"),
        (-62_167_219_200, 0, "0000-01-01T00:00:00Z"), (-62_167_219_201, 0, "-0001-12-31T23:59:59Z"),
        (253_402_300_800, 0, "+10000-01-01T00:00:00Z"),
        (.max, 0, "+292277026596-12-04T15:30:07Z"), (.min, 0, "-292277022657-01-27T08:29:52Z"),
    ])
    func timestampText(seconds: Int64, nanoseconds: UInt32, text: String) throws {
        let value = MessagePackValue.timestamp(MessagePackTimestamp(seconds: seconds, nanoseconds: nanoseconds))
        #expect(MessagePackJSON.render(value).contains("\"$timestamp\":\"\(text)\""))
        try assertRoundTrip(value)
    }

    @Test("a $timestamp with only its text reads the text, for every day of many years")
    func timestampFromText() throws {
        var seconds: Int64 = -62_135_596_800
        while seconds < 253_402_300_799 {
            let timestamp = MessagePackTimestamp(seconds: seconds, nanoseconds: UInt32(seconds.magnitude % 1_000_000_000))
            let text = MessagePackJSON.render(.timestamp(timestamp))
            let textOnly = String(text.prefix { $0 != "," }) + "}"
            #expect(try MessagePackJSON.parse(textOnly) == .timestamp(timestamp), "\(textOnly)")
            seconds += 86_400 * 97 + 3_607
        }
        #expect(try MessagePackJSON.parse(#"{"$timestamp": "2024-05-01T12:00:00.5Z"}"#) == .timestamp(MessagePackTimestamp(seconds: 1_714_564_800, nanoseconds: 500_000_000)))
        #expect(try MessagePackJSON.parse(#"{"$timestamp": "1970-01-01T00:00:05.000Z", "seconds": 5}"#) == .timestamp(MessagePackTimestamp(seconds: 5)))
    }

    @Test("integers are exact over the whole range; numbers with . or e are float64")
    func numbers() throws {
        #expect(try MessagePackJSON.parse("9223372036854775807") == .int(.max))
        #expect(try MessagePackJSON.parse("9223372036854775808") == .uint(1 << 63))
        #expect(try MessagePackJSON.parse("18446744073709551615") == .uint(.max))
        #expect(try MessagePackJSON.parse("-9223372036854775808") == .int(.min))
        #expect(try MessagePackJSON.parse("-0") == .int(0))
        #expect(try MessagePackJSON.parse("-0.0") == .double(-0.0))
        #expect(try MessagePackJSON.parse("1E2") == .double(100))
        #expect(try MessagePackJSON.parse("1e-400") == .double(0))
        #expect(try MessagePackJSON.parse("9007199254740993.0") == .double(9_007_199_254_740_992))
        #expect(try MessagePackJSON.parse(#"{"$float32": 0.1}"#) == .float(0.1))
        #expect(try MessagePackJSON.parse(#"{"$float32": 16777217}"#) == .float(16_777_216))
        #expect(try MessagePackJSON.parse(#"{"$float64": 3}"#) == .double(3))
        #expect(try MessagePackJSON.parse(#"{"$float64": "0x3ff0000000000000"}"#) == .double(1))
        for (json, code) in [("18446744073709551616", MessagePackJSONError.Code.numberOutOfRange), ("-9223372036854775809", .numberOutOfRange),
                             ("1e400", .numberOutOfRange), (#"{"$float32": 1e39}"#, .numberOutOfRange)] {
            #expect(parseError(json)?.code == code, "\(json)")
        }
    }

    @Test("strings: escapes, surrogate pairs, UTF-8 kept as it is")
    func strings() throws {
        #expect(try MessagePackJSON.parse(#""\ud83d\ude00 \u00e9\u0000 \/ \"\\\b\f\n\r\t""#) == "😀 é\u{0} / \"\\\u{8}\u{c}\n\r\t")
        #expect(try MessagePackJSON.parse("\"Привет 你好 👍🏽\"") == "Привет 你好 👍🏽")
        let decomposed = try MessagePackJSON.parse("\"e\u{301}\"")
        #expect(try decomposed.encoded() == [0xa3, 0x65, 0xcc, 0x81])
        #expect(try MessagePackJSON.parse([0xef, 0xbb, 0xbf] + Array("[1]".utf8)) == [1])
    }

    @Test("errors name what is wrong, with line and column", arguments: [
        ("", "unexpectedEnd", 1, 1), ("[1,]", "syntax", 1, 4), ("[1 2]", "syntax", 1, 4), ("[01]", "syntax", 1, 2),
        ("{\"a\": 1,\n  \"b\" 2}", "syntax", 2, 7), ("{a: 1}", "syntax", 1, 2), ("'a'", "syntax", 1, 1), ("[\"é\", x]", "syntax", 1, 7),
        ("NaN", "syntax", 1, 1), ("[-Infinity]", "syntax", 1, 2), ("tru", "unexpectedEnd", 1, 1), ("1.", "unexpectedEnd", 1, 3), ("-", "unexpectedEnd", 1, 2),
        ("\"abc", "unexpectedEnd", 1, 1), ("[\n[", "unexpectedEnd", 2, 2), ("\"a\u{1}\"", "invalidString", 1, 3), ("\"\\x\"", "invalidString", 1, 2),
        ("\"\\ud800\"", "invalidString", 1, 2), ("\"\\udc00\"", "invalidString", 1, 2), ("\"\\ud800\\u0041\"", "invalidString", 1, 2), ("\"\\u12\"", "invalidString", 1, 2),
        ("{\"a\": 1, \"a\": 2}", "duplicateKey", 1, 10), ("1 2", "trailingContent", 1, 3),
        ("{\"$foo\": 1}", "invalidTag", 1, 2), ("{\"a\": 1, \"$bin\": \"\"}", "invalidTag", 1, 2),
        ("{\"$bin\": \"\", \"$map\": []}", "invalidTag", 1, 14), ("{\"$bin\": \"AAE\"}", "invalidTag", 1, 10), ("{\"$bin\": \"A?==\"}", "invalidTag", 1, 10),
        ("{\"$bin\": \"AB==\"}", "invalidTag", 1, 10), ("{\"$bin\": 5}", "invalidTag", 1, 10), ("{\"$bin\": \"\", \"x\": 1}", "invalidTag", 1, 14),
        ("{\"$ext\": 128, \"data\": \"\"}", "invalidTag", 1, 10), ("{\"$ext\": 1}", "invalidTag", 1, 1),
        ("{\"$float64\": \"nan\"}", "invalidTag", 1, 14), ("{\"$float32\": \"0x+fc00000\"}", "invalidTag", 1, 14),
        ("{\"$map\": [[1]]}", "invalidTag", 1, 11), ("{\"$map\": [[1, 2, 3]]}", "invalidTag", 1, 18), ("{\"$map\": {}}", "invalidTag", 1, 10),
        ("{\"$timestamp\": \"1970-01-01T00:00:00Z\", \"seconds\": 5}", "invalidTag", 1, 16),
        ("{\"$timestamp\": \"1970-02-30T00:00:00Z\"}", "invalidTag", 1, 16),
        ("{\"$timestamp\": \"\", \"seconds\": 0, \"nanoseconds\": 1000000000}", "invalidTag", 1, 49),
    ])
    func errors(json: String, code: String, line: Int, column: Int) throws {
        let error = try #require(parseError(json))
        #expect(error.code.name == code, "\(json.debugDescription): \(error)")
        #expect(error.line == line && error.column == column, "\(json.debugDescription): \(error)")
        #expect(error.description.hasSuffix("at line \(line), column \(column) (byte offset \(error.offset))"))
        #expect(!error.description.contains("\n"))
    }

    @Test("invalid UTF-8 inside a string is rejected at its byte")
    func invalidUTF8() throws {
        for bytes: [UInt8] in [[0x22, 0x61, 0xff, 0x22], [0x22, 0x61, 0xc0, 0xaf, 0x22], [0x22, 0x61, 0xed, 0xa0, 0x80, 0x22], [0x22, 0x61, 0xe2, 0x82]] {
            #expect(throws: MessagePackJSONError.self) { try MessagePackJSON.parse(bytes) }
            do {
                _ = try MessagePackJSON.parse(bytes)
            } catch {
                #expect(error.code == .invalidString && error.offset == 2, "\(hex(bytes)): \(error)")
            }
        }
    }

    @Test("nesting is limited the way the MessagePack reader limits it; $map counts once")
    func depthLimit() throws {
        let limit = MessagePackLimits.defaultMaxDepth
        #expect(try MessagePackJSON.parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) != .nil)
        #expect(parseError(String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1))?.code == .depthLimitExceeded)
        var nestedMaps: MessagePackValue = .binary([1])
        for _ in 0 ..< limit { nestedMaps = .map([(key: .int(1), value: nestedMaps)]) }
        try assertRoundTrip(nestedMaps)
        #expect(parseError("{\"$map\": [[1, " + MessagePackJSON.render(nestedMaps) + "]]}")?.code == .depthLimitExceeded)
        #expect(parseError(String(repeating: "{\"a\":", count: 100_000))?.code == .depthLimitExceeded)
    }

    @Test("the parser reads concatenated documents one by one")
    func documents() throws {
        var parser = MessagePackJSONParser(Array(" 1 {\"a\":[]}\n[2]{}\"x\"\n".utf8))
        var values: [MessagePackValue] = []
        while let value = try parser.next() { values.append(value) }
        let expected: [MessagePackValue] = [1, ["a": []], [2], [:], "x"]
        #expect(values == expected)
    }
}
