import Foundation
@testable import LowbandCodecs
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// The well-known types (Timestamp, Duration, Struct / Value / ListValue / NullValue, FieldMask,
/// Any, Empty) in proto3's JSON mapping, against Python's `json_format.ParseDict`: generated
/// payloads give Python's bytes and parse back in Python to the same dict; the edge cases of
/// Timestamp and Duration strings are taken and refused as Python takes and refuses them; bad
/// input is named by its path.
@Suite struct ProtobufWellKnownPeerTests {
    static let schema = """
        syntax = "proto3";
        package wkt;
        import "google/protobuf/any.proto";
        import "google/protobuf/duration.proto";
        import "google/protobuf/empty.proto";
        import "google/protobuf/field_mask.proto";
        import "google/protobuf/struct.proto";
        import "google/protobuf/timestamp.proto";
        import "google/protobuf/wrappers.proto";
        message Note { string text = 1; map<string, int32> counts = 2; google.protobuf.Timestamp at = 3; }
        message Event {
          google.protobuf.Timestamp sent = 1; google.protobuf.Duration ttl = 2; google.protobuf.Struct meta = 3;
          google.protobuf.Value extra = 4; google.protobuf.ListValue items = 5; google.protobuf.FieldMask mask = 6;
          google.protobuf.Any payload = 7; google.protobuf.Empty nothing = 8; repeated google.protobuf.Timestamp history = 9;
          repeated google.protobuf.Value values = 10; map<string, google.protobuf.Value> attrs = 11;
          google.protobuf.NullValue null_kind = 12; repeated google.protobuf.Any attachments = 13;
          google.protobuf.Int64Value count = 14; optional google.protobuf.NullValue maybe_null = 15;
          repeated google.protobuf.Duration laps = 16; string id = 17;
          oneof body { string text_body = 18; google.protobuf.Timestamp at_time = 19; }
        }
        """

    static let pythonPool = """
        import json, sys
        from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
        from google.protobuf import duration_pb2, timestamp_pb2
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(sys.argv[1], "rb").read())
        pool = descriptor_pool.DescriptorPool()
        for f in fds.file: pool.Add(f)
        cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("wkt.Event"))
        def parse(payload):
            return json_format.ParseDict(payload, cls(), descriptor_pool=pool)

        """

    static func target(in directory: TemporaryDirectory) async throws -> (ProtoTarget, String) {
        let proto = directory.file("wkt.proto")
        let descriptor = directory.file("wkt.pb")
        try Data(schema.utf8).write(to: URL(fileURLWithPath: proto))
        let protoc = try await ExternalProcess.run("/usr/bin/env", ["protoc", "--include_imports", "--descriptor_set_out=\(descriptor)", "-I", directory.path, proto])
        try #require(protoc.status == 0, "\(protoc.stderrText)")
        let schema = try ProtoSchema(descriptorSet: Array(try Data(contentsOf: URL(fileURLWithPath: descriptor))))
        return (try ProtoTarget(schema: schema, message: "Event"), descriptor)
    }

    /// Every generated payload: our bytes have Python's length and, where no map has two entries
    /// (upb writes map entries in its hash order), Python's very bytes, else the same bytes once
    /// both are serialized deterministically (Any payloads unpacked too); Python parses ours to
    /// the dict it parses its own to; our decoder's Timestamp, Duration, FieldMask and Struct /
    /// Value / ListValue forms are `MessageToDict`'s; and our decoder reads back what encodes to
    /// the same bytes.
    @Test func generatedPayloadsGivePythonsBytes() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let (target, descriptor) = try await Self.target(in: directory)
        var generator = WellKnownPayloads(seed: 37)
        var lines: [String] = []
        for index in 0 ..< 240 {
            let (value, exact) = generator.payload(index)
            let text = String(decoding: CompactJSON.encode(value), as: UTF8.self)
            let bytes = try target.encoder.encode(try MessagePackJSON.parse(text))
            let decoded = try target.decoder.decode(bytes[...], as: target.encoder.message)
            #expect(try target.encoder.encode(decoded) == bytes, "payload \(index): \(text)")
            let record: MessagePackValue = .map([
                (.string("json"), .string(text)), (.string("ours"), .string(bytes.map { String(format: "%02x", $0) }.joined())),
                (.string("exact"), .bool(exact)), (.string("decoded"), decoded),
            ])
            lines.append(String(decoding: CompactJSON.encode(record), as: UTF8.self))
        }
        let records = directory.file("records.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: records))
        let script = Self.pythonPool + """
            from google.protobuf import any_pb2
            def fix(m):
                if m.DESCRIPTOR.full_name == "google.protobuf.Any":
                    if m.type_url:
                        inner = message_factory.GetMessageClass(pool.FindMessageTypeByName(m.type_url.split("/")[-1]))()
                        inner.ParseFromString(m.value)
                        fix(inner)
                        m.value = inner.SerializeToString(deterministic=True)
                    return
                for f, v in m.ListFields():
                    if f.message_type is None: continue
                    if f.message_type.GetOptions().map_entry:
                        if f.message_type.fields_by_name["value"].message_type is not None:
                            for k in v: fix(v[k])
                    elif f.is_repeated:
                        for x in v: fix(x)
                    else: fix(v)
            def canon(m):
                m = type(m).FromString(m.SerializeToString())
                fix(m)
                return m.SerializeToString(deterministic=True)
            exact = 0
            for n, line in enumerate(open(sys.argv[2], encoding="utf-8")):
                r = json.loads(line)
                theirs = parse(json.loads(r["json"]))
                ours = cls.FromString(bytes.fromhex(r["ours"]))
                tb = theirs.SerializeToString()
                ob = bytes.fromhex(r["ours"])
                assert len(ob) == len(tb), (n, len(ob), len(tb), r["json"])
                if r["exact"]:
                    assert ob == tb, (n, ob.hex(), tb.hex(), r["json"])
                    exact += 1
                assert canon(ours) == canon(theirs), (n, r["json"])
                d = json_format.MessageToDict(theirs, descriptor_pool=pool)
                assert json_format.MessageToDict(ours, descriptor_pool=pool) == d, (n, r["json"])
                for key in ("sent", "ttl", "mask", "history", "laps", "meta", "extra", "items", "values", "attrs"):
                    if key in d: assert r["decoded"][key] == d[key], (n, key, r["decoded"][key], d[key])
            print("same", exact)
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, descriptor, records])
        #expect(python.status == 0 && python.stdoutText.hasPrefix("same "), "\(python.stderrText)")
        // Enough payloads are compared byte for byte, not only after sorting maps.
        let exact = Int(python.stdoutText.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(exact >= 60, "\(python.stdoutText)")
    }

    static let timestamps = [
        "2024-01-01T00:00:00Z", "2024-1-5T3:4:5Z", "2024-01- 5T00:00:00Z", "2024-01-01t00:00:00Z", "2024-01-01T00:00:00z",
        "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.5 Z", "2024-01-01T00:00:00.1_5Z", "2024-01-01T00:00:00._5Z",
        "2024-01-01T00:00:00.5e-1Z", "2024-01-01T00:00:00.1234567890Z", "2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00.000000005Z",
        "2024-01-01T00:00:00.5e-9Z", "2024-01-01T00:00:00.15e-8Z", "2024-01-01T00:00:00.25e-8Z", "2024-01-01T00:00:00.9e1Z", "2024-01-01T00:00:00.1E2Z",
        "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z", "2024-01-01T23:59:60Z", "2024-01-01T23:59:61Z", "2024-01-01T23:59:62Z",
        "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-00-10T00:00:00Z",
        "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01", "0001-01-01T00:00:00-00:01", "9999-12-31T23:59:59.999999999Z",
        "9999-12-31T23:59:59-00:01", "9999-12-31T23:59:59+00:01", "10000-01-01T00:00:00Z", "2024-01-01T00:00:00+05:30", "2024-01-01T00:00:00-05:30",
        "2024-01-01T00:00:00+5:3", "2024-01-01T00:00:00+0530", "2024-01-01T00:00:00+05:30:00", "2024-01-01T00:00:00+ 5:30", "2024-01-01T00:00:00+05:-30",
        "2024-01-01T00:00:00+99:00", "2024-01-01T00:00:00+1_0:00", "2024-01-01T00:00:00Zjunk", "\u{662}\u{660}\u{662}\u{664}-01-01T00:00:00Z",
        "2024-01-01T0\u{665}:00:00Z", "2024-01-01T\u{665}0:00:00Z", "2024-01-01T00:00:00.\u{665}Z", " 2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z ",
        "2024-01-01 00:00:00Z", "+2024-01-01T00:00:00Z", "2024-01-01T00:00:00+05:30Z", "2024-01-01T00:00:00.5+05:00", "1969-12-31T23:59:59.999999999Z",
        "2024-01-01T00:00:00.1234Z", "2024-01-01T00:00:00-00:00", "2024-01-01T00:00:00.+01:00", "2024-01-01T00:00:00\u{A0}Z", "2024-01-01T00:00:00.5\u{A0}Z",
        "2024-01-01T00:00:00+\u{A0}1:00", "2024-1-1T1:1:1.1Z", "24-01-01T00:00:00Z", "2024-01-01T00:00Z", "", "Z", "-",
    ]

    static let durations = [
        "1s", "1.5s", "-1.5s", "-0.000000001s", "0s", "-0s", "315576000000s", "315576000001s", "-315576000000.999999999s", "-315576000001s",
        "315576000000.999999999s", "1.0000000005s", "1.0000000015s", "1.0000000025s", "1.s", ".5s", "1.5", "1.5S", "+1.5s", " 1.5s", " -1.5s",
        "1_000s", "1.5_5s", "1e3s", "1.5e3s", "1.5e-3s", "1.5 s", "- 1s", "s", "", "--1s", "1.5.5s", "\u{661}\u{662}s", "0.1234567891234s",
        "-0.5s", "1.-5s", "1.+5s", "-1.-5s", "0.9999999995s", "-0.9999999995s", "99999999999999999999999s", "1__0s", "_1s", "1_s", "1.5e999s",
    ]

    /// The strings above, each read by ours and by Python's `FromJsonString`: the same ones
    /// refused, the same seconds and nanos for the rest.
    ///
    /// Then 3,000 of each generated and mutated: a character replaced, inserted or dropped,
    /// from digits, separators, signs, letters, white space, `_` and a non-ASCII digit.
    @Test func timestampAndDurationStringsAreReadAsPythonReadsThem() async throws {
        var generator = WellKnownPayloads(seed: 11)
        var timestamps = Self.timestamps
        var durations = Self.durations
        for _ in 0 ..< 3_000 {
            timestamps.append(generator.mutated(generator.timestamp()))
            durations.append(generator.mutated(generator.duration()))
        }
        var ours: [String] = []
        for text in timestamps {
            ours.append((try? ProtoTime.timestamp(text)).map { "\($0.seconds) \($0.nanos)" } ?? "refused")
        }
        for text in durations {
            ours.append((try? ProtoTime.duration(text)).map { "\($0.seconds) \($0.nanos)" } ?? "refused")
        }
        let script = """
            import json, sys
            from google.protobuf import duration_pb2, timestamp_pb2
            cases = json.load(open(sys.argv[1], encoding="utf-8"))
            for kind, texts in (("t", cases["t"]), ("d", cases["d"])):
                for text in texts:
                    m = timestamp_pb2.Timestamp() if kind == "t" else duration_pb2.Duration()
                    try:
                        m.FromJsonString(text)
                        print(m.seconds, m.nanos)
                    except Exception:
                        print("refused")
            """
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let cases = directory.file("cases.json")
        try JSONSerialization.data(withJSONObject: ["t": timestamps, "d": durations]).write(to: URL(fileURLWithPath: cases))
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, cases])
        try #require(python.status == 0, "\(python.stderrText)")
        let theirs = python.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let texts = timestamps + durations
        try #require(theirs.count == texts.count)
        for index in texts.indices {
            #expect(ours[index] == theirs[index], "\(texts[index].debugDescription): ours \(ours[index]), Python's \(theirs[index])")
        }
        // Both kinds of answer are exercised.
        #expect(theirs.filter { $0 == "refused" }.count > 20 && theirs.filter { $0 != "refused" }.count > 20)
    }

    /// The forms apps write are read without allocating, to what the general reader (the one
    /// checked against Python above) gives for them.
    @Test func theQuickReadingOfCommonFormsIsTheGeneralOne() throws {
        var generator = WellKnownPayloads(seed: 7)
        var quick = 0
        for _ in 0 ..< 3_000 {
            let timestamp = generator.timestamp()
            if let fast = ProtoTime.canonicalTimestamp(timestamp) {
                quick += 1
                let general = try ProtoTime.generalTimestamp(timestamp)
                #expect(fast == general, "\(timestamp)")
            }
            let duration = generator.duration()
            if let fast = ProtoTime.canonicalDuration(duration) {
                quick += 1
                let general = try ProtoTime.generalDuration(duration)
                #expect(fast == general, "\(duration)")
            }
        }
        #expect(quick > 5_000)
        for text in Self.timestamps where ProtoTime.canonicalTimestamp(text) != nil {
            #expect(ProtoTime.canonicalTimestamp(text)! == (try ProtoTime.generalTimestamp(text)), "\(text)")
        }
        for text in Self.durations where ProtoTime.canonicalDuration(text) != nil {
            #expect(ProtoTime.canonicalDuration(text)! == (try ProtoTime.generalDuration(text)), "\(text)")
        }
    }

    /// Each also refused by Python's ParseDict (checked below), named by its JSON path here.
    static let badPayloads = [
        (#"{"sent":"2024-13-01T00:00:00Z"}"#, #"sent: "2024-13-01T00:00:00Z" is not a Timestamp: the date and time do not read as YYYY-MM-DDTHH:MM:SS"#),
        (#"{"sent":"2024-01-01T00:00:00"}"#, #"sent: "2024-01-01T00:00:00" is not a Timestamp: no time zone (Z or ±HH:MM)"#),
        (#"{"history":["2024-02-30T00:00:00Z"]}"#, #"history[0]: "2024-02-30T00:00:00Z" is not a Timestamp: no such date or time"#),
        (#"{"sent":"2024-01-01T00:00:00.1234567891Z"}"#, #"sent: "2024-01-01T00:00:00.1234567891Z" is not a Timestamp: more than 9 fractional digits"#),
        (#"{"sent":"0001-01-01T00:00:00+01:00"}"#, #"sent: "0001-01-01T00:00:00+01:00" is not a Timestamp: outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z"#),
        (#"{"sent":1700000000}"#, "sent: a number where google.protobuf.Timestamp (a string) is declared"),
        (#"{"ttl":"315576000001s"}"#, #"ttl: "315576000001s" is not a Duration: outside ±315,576,000,000 s"#),
        (#"{"laps":["1s","-1.-5s"]}"#, #"laps[1]: "-1.-5s" is not a Duration: the fraction is not a number"#),
        (#"{"ttl":"5m"}"#, #"ttl: "5m" is not a Duration: it does not end in s"#),
        (#"{"payload":{"@type":"type.googleapis.com/wkt.Nope","text":"x"}}"#, "payload.@type: type.googleapis.com/wkt.Nope names wkt.Nope, which is not in the schema"),
        (#"{"attachments":[{},{"text":"x"}]}"#, "attachments[1]: an Any without @type"),
        (#"{"payload":{"@type":"type.googleapis.com/google.protobuf.Duration"}}"#, "payload: an Any of google.protobuf.Duration without its value"),
        (#"{"payload":{"@type":"type.googleapis.com/wkt.Note","txt":"x"}}"#, "payload.txt: no field txt in wkt.Note"),
        (#"{"payload":{"@type":"type.googleapis.com/google.protobuf.Timestamp","value":"soon"}}"#, #"payload.value: "soon" is not a Timestamp: no time zone (Z or ±HH:MM)"#),
        (#"{"mask":"user.display_name"}"#, #"mask: the FieldMask path "user.display_name" has a _ (paths are camelCase)"#),
        (#"{"meta":[1]}"#, "meta: an array where google.protobuf.Struct (an object) is declared"),
        (#"{"items":{"a":1}}"#, "items: an object where google.protobuf.ListValue (an array) is declared"),
        (#"{"history":[null]}"#, "history[0]: null in a repeated field"),
        (#"{"nothing":{"a":1}}"#, "nothing.a: no field a in google.protobuf.Empty"),
    ]

    @Test func aBadWellKnownValueIsNamedByPathAndPythonRefusesItToo() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let (target, descriptor) = try await Self.target(in: directory)
        for (text, message) in Self.badPayloads {
            do {
                _ = try target.encoder.encode(try MessagePackJSON.parse(text))
                Issue.record("encoded \(text)")
            } catch {
                #expect("\(error)" == message)
            }
        }
        let script = Self.pythonPool + """
            for text in sys.argv[2:]:
                try:
                    parse(json.loads(text))
                    print("took", text)
                except Exception:
                    pass
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, descriptor] + Self.badPayloads.map(\.0))
        #expect(python.status == 0 && python.stdoutText.isEmpty, "\(python.stdoutText)\(python.stderrText)")
    }

    /// Odd corners, each taken with Python's very bytes or refused as Python refuses it:
    /// FieldMask paths with upper case beyond ASCII (each character lowered alone), empty and
    /// doubled commas; Any's type URL without a prefix, with extra keys beside `value`, of
    /// Empty; NullValue by name or number; an empty list or string given for a message.
    static let corners = [
        // One oneof given two members, or one member under both its names: refused. A null member
        // is not set. A field outside a oneof named twice (`id` and its JSON name are one here, so
        // `text` of Note through an Any) keeps the last value, and null clears it. (A JSON object
        // with one key twice is refused earlier, by the JSON reader, with its line and column.)
        #"{"textBody":"a","atTime":"2024-01-01T00:00:00Z"}"#, #"{"textBody":null,"atTime":"2024-01-01T00:00:00Z"}"#,
        #"{"atTime":"2024-01-01T00:00:00Z","text_body":"b"}"#, #"{"textBody":"a","text_body":"b"}"#, #"{"text_body":"b","textBody":"a"}"#,
        #"{"textBody":"a","text_body":null}"#, #"{"text_body":null,"textBody":"a"}"#,
        #"{"nullKind":1,"null_kind":0}"#, #"{"null_kind":1,"nullKind":null}"#, #"{"maybeNull":null,"maybe_null":"NULL_VALUE"}"#,
        #"{"mask":"FooBar"}"#, #"{"mask":"ⒶB,İx,ǅx,ΣΑΣ,ẞ,ß,fooBAR, spaced Out "}"#,
        #"{"mask":""}"#, #"{"mask":","}"#, #"{"mask":"a,,b.cD"}"#, #"{"mask":"a_b"}"#, #"{"mask":5}"#,
        #"{"payload":{"@type":"wkt.Note","text":"x"}}"#, #"{"payload":{"@type":"type.googleapis.com/"}}"#,
        #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Timestamp","value":"2024-01-01T00:00:00Z","extra":1}}"#,
        #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Empty"}}"#, #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Empty","value":{}}}"#,
        #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Value","value":null}}"#, #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Value"}}"#,
        #"{"payload":{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":null}}"#, #"{"payload":{"@type":5}}"#, #"{"payload":"x"}"#,
        #"{"payload":[]}"#, #"{"payload":{"@type":"type.googleapis.com/wkt.Note","text":null,"counts":{"k":0}}}"#,
        #"{"payload":{"@type":"type.googleapis.com/.wkt.Note"}}"#, #"{"payload":{}}"#, #"{"attachments":[{},null]}"#,
        #"{"nullKind":"NULL_VALUE"}"#, #"{"nullKind":1}"#, #"{"nullKind":"NOPE"}"#, #"{"maybeNull":"NULL_VALUE"}"#,
        #"{"nothing":[]}"#, #"{"nothing":""}"#, #"{"nothing":"x"}"#, #"{"nothing":null}"#, #"{"count":null}"#, #"{"count":"12"}"#,
        #"{"values":[null,{"a":null},[],{}]}"#, #"{"attrs":{"k":null}}"#, #"{"attrs":{"":[{"":""}]}}"#, #"{"extra":"NaN"}"#,
        #"{"extra":-0.0}"#, #"{"extra":18446744073709551615}"#, #"{"items":[]}"#, #"{"items":null}"#, #"{"meta":{"":{}}}"#,
        #"{"ttl":null}"#, #"{"ttl":"-0.5s"}"#, #"{"history":[]}"#, #"{"laps":["0s","-0s"]}"#,
    ]

    @Test func oddCornersAreTakenAndRefusedAsPythonDoes() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let (target, descriptor) = try await Self.target(in: directory)
        var ours: [String] = []
        for text in Self.corners {
            do {
                ours.append("took " + (try target.encoder.encode(try MessagePackJSON.parse(text))).map { String(format: "%02x", $0) }.joined())
            } catch {
                ours.append("refused")
            }
        }
        let script = Self.pythonPool + """
            for text in sys.argv[2:]:
                try:
                    print("took " + parse(json.loads(text)).SerializeToString().hex())
                except Exception:
                    print("refused")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, descriptor] + Self.corners)
        try #require(python.status == 0, "\(python.stderrText)")
        let theirs = python.stdoutText.split(separator: "\n").map(String.init)
        try #require(theirs.count == Self.corners.count)
        for index in theirs.indices {
            #expect(ours[index] == theirs[index], "\(Self.corners[index]): ours \(ours[index]), Python's \(theirs[index])")
        }
    }

    /// json_format refuses messages nested more than 100 deep (each Struct, Value, ListValue
    /// and Any counts; an Any's own message and a wrapper in an Any do not): nested Structs,
    /// lists and Anys around that depth are taken and refused as Python takes and refuses them.
    @Test func nestingIsRefusedWherePythonRefusesIt() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let (target, descriptor) = try await Self.target(in: directory)
        var payloads: [String] = []
        for depth in 44 ... 52 {
            let open = String(repeating: #"{"a":"#, count: depth)
            payloads.append(#"{"meta":"# + open + "1" + String(repeating: "}", count: depth) + "}")
            payloads.append(#"{"items":"# + String(repeating: "[", count: depth) + "null" + String(repeating: "]", count: depth) + "}")
            let any = #"{"@type":"type.googleapis.com/google.protobuf.Any","value":"#
            let inner = #"{"@type":"type.googleapis.com/google.protobuf.Int64Value","value":"5"}"#
            let note = #"{"@type":"type.googleapis.com/wkt.Note","at":"2024-01-01T00:00:00Z"}"#
            payloads.append(#"{"payload":"# + String(repeating: any, count: depth * 2) + inner + String(repeating: "}", count: depth * 2 + 1))
            payloads.append(#"{"payload":"# + String(repeating: any, count: depth * 2) + note + String(repeating: "}", count: depth * 2 + 1))
        }
        var ours: [String] = []
        for text in payloads {
            do {
                _ = try target.encoder.encode(try MessagePackJSON.parse(text))
                ours.append("took")
            } catch {
                ours.append("refused")
            }
        }
        let script = Self.pythonPool + """
            for text in sys.argv[2:]:
                try:
                    parse(json.loads(text))
                    print("took")
                except Exception:
                    print("refused")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script, descriptor] + payloads)
        try #require(python.status == 0, "\(python.stderrText)")
        let theirs = python.stdoutText.split(separator: "\n").map(String.init)
        #expect(ours == theirs)
        // Each of the four kinds crosses the limit within the depths tried.
        for kind in 0 ..< 4 {
            let column = stride(from: kind, to: theirs.count, by: 4).map { theirs[$0] }
            #expect(column.contains("took") && column.contains("refused"), "kind \(kind): \(column)")
        }
    }

    /// `null`: a Value field is NullValue (written), a NullValue field 0 (written only with
    /// presence), a Struct field unset; null inside Value lists and maps is NullValue too.
    @Test func nullIsWhatParseDictMakesOfIt() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto-wkt")
        let (target, _) = try await Self.target(in: directory)
        let cases: [(String, [UInt8])] = [
            (#"{"extra":null}"#, [0x22, 0x02, 0x08, 0x00]),
            (#"{"nullKind":null}"#, []),
            (#"{"maybeNull":null}"#, [0x78, 0x00]),
            (#"{"meta":null,"items":null,"sent":null}"#, []),
            (#"{"meta":{}}"#, [0x1A, 0x00]),
            (#"{"values":[null]}"#, [0x52, 0x02, 0x08, 0x00]),
        ]
        for (text, bytes) in cases {
            #expect(try target.encoder.encode(try MessagePackJSON.parse(text)) == bytes, "\(text)")
        }
    }
}

/// Seeded payloads for ``ProtobufWellKnownPeerTests``: timestamps across years and offsets with
/// 0–9 fractional digits, durations of both signs, nested Struct / ListValue / Value, FieldMasks
/// of camelCase paths, Any of a user message, of the well-known types and of a wrapper.
struct WellKnownPayloads {
    private var state: UInt64
    /// Whether any map (a Struct included) got two entries or more in the current payload.
    private var multiEntryMap = false

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    private func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private mutating func fraction() -> String {
        let digits = [0, 0, 3, 6, 9, 1, 2, 4, 5, 7, 8][below(11)]
        guard digits > 0 else { return "" }
        return "." + (0 ..< digits).map { _ in String(below(10)) }.joined()
    }

    mutating func timestamp() -> String {
        let year = [1, 1969, 1970, 2000, 2024, 2038, 9999][below(7)] + (chance(50) ? 0 : below(9999))
        let clamped = min(max(year, 1), 9999)
        let month = 1 + below(12)
        let days = [31, clamped % 4 == 0 && (clamped % 100 != 0 || clamped % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        let day = 1 + below(days)
        var text = "\(pad(clamped, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(below(24), 2)):\(pad(below(60), 2)):\(pad(below(60), 2))\(fraction())"
        if clamped == 1 || clamped == 9999 || chance(40) {
            text += "Z"
        } else {
            text += (chance(50) ? "+" : "-") + pad(below(15), 2) + ":" + ["00", "30", "45"][below(3)]
        }
        return text
    }

    /// `text` with one character replaced, inserted or dropped (or left as it is).
    mutating func mutated(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        let pool = Array("0123456789-:.T tZz+_es\u{665}\u{A0}".unicodeScalars)
        let at = below(scalars.count + 1)
        switch below(4) {
        case 0 where at < scalars.count: scalars[at] = pool[below(pool.count)]
        case 1: scalars.insert(pool[below(pool.count)], at: at)
        case 2 where at < scalars.count: scalars.remove(at: at)
        default: break
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    mutating func duration() -> String {
        let magnitude = [0, 1, 59, 3_600, 86_400 * 365, 315_576_000_000][below(6)]
        let seconds = chance(30) ? magnitude : Int(next() % UInt64(magnitude + 1))
        return (chance(40) ? "-" : "") + String(seconds) + fraction() + "s"
    }

    private mutating func name() -> String {
        let words = ["user", "display", "name", "photo", "thumb", "url", "x", "id", "Ünïcode", "émoji"]
        var text = words[below(words.count)].lowercased()
        for _ in 0 ..< below(3) { text += words[below(words.count)].capitalized }
        return text
    }

    mutating func fieldMask() -> String {
        (0 ..< below(4)).map { _ in (0 ..< 1 + below(3)).map { _ in name() }.joined(separator: ".") }.joined(separator: ",")
    }

    private mutating func string() -> String {
        ["", "hi", "Привет", "👍 https://example.org/a/b?c=d", "line\nbreak", "quote\"", "NaN", "null", "2024-01-01T00:00:00Z"][below(9)]
    }

    private mutating func number() -> MessagePackValue {
        switch below(6) {
        case 0: .int(Int64(below(1000)) - 500)
        case 1: .int(Int64(bitPattern: next()))
        case 2: .uint(UInt64.max - UInt64(below(1000)))
        case 3: .double(Double(Int64(bitPattern: next())) / Double(1 << UInt64(below(60))))
        case 4: .double(Double(bitPattern: (next() & 0x7FEF_FFFF_FFFF_FFFF) | 0x0010_0000_0000_0000))
        default: .double([0, -0.0, 0.1, 1e-300, Double.leastNonzeroMagnitude, 1.7976931348623157e308][below(6)])
        }
    }

    /// Any JSON, objects and arrays to `depth`.
    mutating func json(depth: Int) -> MessagePackValue {
        switch below(depth > 0 ? 8 : 5) {
        case 0: return .nil
        case 1: return .bool(chance(50))
        case 2, 3: return number()
        case 4: return .string(string())
        case 5, 6: return object(depth: depth - 1)
        default: return .array((0 ..< below(4)).map { _ in json(depth: depth - 1) })
        }
    }

    mutating func object(depth: Int) -> MessagePackValue {
        let count = below(4)
        if count >= 2 { multiEntryMap = true }
        var keys: [String] = []
        while keys.count < count {
            let key = ["a", "b", "key", "ключ", "", "with space", "k\(below(100))"][below(7)]
            if !keys.contains(key) { keys.append(key) }
        }
        return .map(keys.map { (.string($0), json(depth: depth)) })
    }

    mutating func any(depth: Int) -> MessagePackValue {
        let prefix = ["type.googleapis.com/", "example.com/types/", ""][below(3)]
        func typed(_ name: String, _ rest: [(key: MessagePackValue, value: MessagePackValue)]) -> MessagePackValue {
            .map([(.string("@type"), .string(prefix + name))] + rest)
        }
        switch below(depth > 0 ? 12 : 11) {
        case 0:
            var fields: [(key: MessagePackValue, value: MessagePackValue)] = [(.string("text"), .string(string()))]
            if chance(50) {
                let count = below(3)
                if count >= 2 { multiEntryMap = true }
                fields.append((.string("counts"), .map((0 ..< count).map { (.string("c\($0)"), .int(Int64(below(5)))) })))
            }
            if chance(50) { fields.append((.string("at"), .string(timestamp()))) }
            return typed("wkt.Note", fields)
        case 1: return typed("google.protobuf.Timestamp", [(.string("value"), .string(timestamp()))])
        case 2: return typed("google.protobuf.Duration", [(.string("value"), .string(duration()))])
        case 3: return typed("google.protobuf.Struct", [(.string("value"), object(depth: 2))])
        case 4: return typed("google.protobuf.Value", [(.string("value"), json(depth: 2))])
        case 5: return typed("google.protobuf.ListValue", [(.string("value"), .array((0 ..< below(3)).map { _ in json(depth: 1) }))])
        case 6: return typed("google.protobuf.FieldMask", [(.string("value"), .string(fieldMask()))])
        case 7: return typed("google.protobuf.Int64Value", [(.string("value"), chance(50) ? .string(String(Int64(bitPattern: next()))) : .int(Int64(below(100))))])
        case 8: return typed("google.protobuf.StringValue", [(.string("value"), .string(string()))])
        case 9: return typed("google.protobuf.Empty", [])
        case 10: return .map([])
        default: return typed("google.protobuf.Any", [(.string("value"), any(depth: depth - 1))])
        }
    }

    /// Payload `index` of wkt.Event, and whether Python's bytes are to be ours exactly.
    mutating func payload(_ index: Int) -> (MessagePackValue, Bool) {
        multiEntryMap = false
        var fields: [(key: MessagePackValue, value: MessagePackValue)] = [(.string("id"), .string("e-\(index)"))]
        if chance(70) { fields.append((.string("sent"), .string(timestamp()))) }
        if chance(60) { fields.append((.string("ttl"), .string(duration()))) }
        if chance(40) { fields.append((.string("meta"), chance(10) ? .nil : object(depth: 3))) }
        if chance(40) { fields.append((.string("extra"), json(depth: 3))) }
        if chance(30) { fields.append((.string("items"), .array((0 ..< below(4)).map { _ in json(depth: 2) }))) }
        if chance(40) { fields.append((.string("mask"), .string(fieldMask()))) }
        if chance(50) { fields.append((.string("payload"), any(depth: 2))) }
        if chance(20) { fields.append((.string("nothing"), .map([]))) }
        if chance(30) { fields.append((.string("history"), .array((0 ..< below(4)).map { _ in .string(timestamp()) }))) }
        if chance(30) { fields.append((.string("values"), .array((0 ..< below(4)).map { _ in json(depth: 2) }))) }
        if chance(30) {
            let attrs = object(depth: 2)
            fields.append((.string("attrs"), attrs))
        }
        if chance(20) { fields.append((.string(chance(50) ? "nullKind" : "null_kind"), chance(50) ? .nil : .string("NULL_VALUE"))) }
        if chance(20) { fields.append((.string("maybeNull"), chance(50) ? .nil : .int(0))) }
        if chance(30) { fields.append((.string("attachments"), .array((0 ..< below(3)).map { _ in any(depth: 1) }))) }
        if chance(20) { fields.append((.string("count"), .string(String(Int64(bitPattern: next()))))) }
        if chance(30) { fields.append((.string("laps"), .array((0 ..< below(4)).map { _ in .string(duration()) }))) }
        return (.map(fields), !multiEntryMap)
    }
}
