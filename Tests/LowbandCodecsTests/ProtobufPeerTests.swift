import Foundation
@testable import LowbandCodecs
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// protobuf by a user's own `.proto`, against Python's: each payload's bytes parse in Python
/// (`FromString`) to the message `json_format.ParseDict` makes of the same JSON, with as many
/// bytes; and our decoder reads back what we wrote.
@Suite struct ProtobufPeerTests {
    static let schema = """
        syntax = "proto3";
        package chat;
        enum Kind { KIND_UNKNOWN = 0; TEXT = 1; PHOTO = 2; }
        message Attachment { string url = 1; int32 w = 2; int32 h = 3; string thumb = 4; int64 size = 5; }
        message Message {
          string id = 1; int64 chat = 2; string text = 3; repeated Attachment attachments = 4; int64 sent = 5;
          optional string edited = 6; bool pinned = 7; Kind kind = 8; map<string, int32> reactions = 9;
          repeated int64 seq_numbers = 10; double ratio = 11; bytes blob = 12; sint64 delta = 13; fixed32 crc = 14;
          repeated string tags = 15; uint64 big = 16; float score = 17; map<int64, Attachment> by_id = 18;
          sfixed64 stamp = 19; repeated bool flags = 20; uint32 small = 21;
        }
        """

    /// URLs, non-ASCII text, 64-bit integers as numbers and strings, enums by name and number,
    /// packed repeated fields, maps, zero values left out, proto3 `optional` kept, base64, null.
    static let payloads = [
        #"{"id":"m-1","chat":42,"text":"Привет! https://example.org/a/b 👍","attachments":[{"url":"https://cdn.example.com/p.jpg","w":1280,"h":720,"size":"5000000000"},{}],"sent":1732873915123,"edited":"","pinned":false,"kind":"PHOTO","reactions":{"👍":3,"x":0},"seqNumbers":[1,-2,300,"9007199254740993"],"ratio":0.25,"blob":"aGVsbG8/d29ybGQ=","delta":-5,"crc":4294967295,"tags":["a",""],"big":"18446744073709551615","score":1.1}"#,
        #"{"id":"m-2","chat":-1,"text":"","kind":7,"seq_numbers":[],"ratio":-0.0,"byId":{"-3":{"url":"x"},"9":{}},"stamp":"-9223372036854775808","flags":[true,false,true],"small":0,"edited":null}"#,
        #"{"id":"","chat":0,"attachments":[],"reactions":{},"delta":-9223372036854775808,"blob":"_-8","score":-3.4028234663852886e38}"#,
    ]

    static func target(in directory: TemporaryDirectory) async throws -> (ProtoTarget, String) {
        let proto = directory.file("chat.proto")
        let descriptor = directory.file("chat.pb")
        try Data(schema.utf8).write(to: URL(fileURLWithPath: proto))
        let protoc = try await ExternalProcess.run("/usr/bin/env", ["protoc", "--include_imports", "--descriptor_set_out=\(descriptor)", "-I", directory.path, proto])
        try #require(protoc.status == 0, "\(protoc.stderrText)")
        let schema = try ProtoSchema(descriptorSet: Array(try Data(contentsOf: URL(fileURLWithPath: descriptor))))
        return (try ProtoTarget(schema: schema, message: "Message"), descriptor)
    }

    @Test func bytesParseInPythonToWhatParseDictMakes() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto")
        let (target, descriptor) = try await Self.target(in: directory)
        var arguments = [descriptor]
        for (index, text) in Self.payloads.enumerated() {
            let bytes = try target.encoder.encode(try MessagePackJSON.parse(text))
            let path = directory.file("p\(index).bin")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            arguments += [text, path]
            // Our decoder reads it back to a tree that encodes to the same bytes.
            let decoded = try target.decoder.decode(bytes[...], as: target.encoder.message)
            #expect(try target.encoder.encode(decoded) == bytes, "payload \(index)")
        }
        let script = """
            import json, sys
            from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
            fds = descriptor_pb2.FileDescriptorSet.FromString(open(sys.argv[1], "rb").read())
            pool = descriptor_pool.DescriptorPool()
            for f in fds.file: pool.Add(f)
            cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("chat.Message"))
            args = sys.argv[2:]
            for text, path in zip(args[0::2], args[1::2]):
                theirs = json_format.ParseDict(json.loads(text), cls())
                ours = open(path, "rb").read()
                assert cls.FromString(ours) == theirs, (path, cls.FromString(ours), theirs)
                assert len(ours) == len(theirs.SerializeToString()), (path, len(ours), len(theirs.SerializeToString()))
            print("same")
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", script] + arguments)
        #expect(python.status == 0 && python.stdoutText == "same\n", "\(python.stderrText)")
    }

    @Test(arguments: [
        (#"{"chat":"soon"}"#, "chat: a string where int64 is declared"),
        (#"{"attachments":[{},{},{"w":1.5}]}"#, "attachments[2].w: a number where int32 is declared"),
        (#"{"kind":"VIDEO"}"#, "kind: VIDEO is not a value of enum chat.Kind"),
        (#"{"nope":1}"#, "nope: no field nope in chat.Message"),
        (#"{"small":-1}"#, "small: -1 is out of uint32's range"),
        (#"{"tags":[null]}"#, "tags[0]: null in a repeated field"),
    ])
    func aPayloadTheSchemaCannotEncodeIsNamedByPath(text: String, message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto")
        let (target, _) = try await Self.target(in: directory)
        do {
            _ = try target.encoder.encode(try MessagePackJSON.parse(text))
            Issue.record("encoded \(text)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func anUnknownMessageNamesTheOnesThereAre() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-proto")
        let (target, _) = try await Self.target(in: directory)
        do {
            _ = try ProtoTarget(schema: target.encoder.schema, message: "Mesage")
            Issue.record("found Mesage")
        } catch {
            #expect(error.description == "no message Mesage in the schema; it has chat.Attachment, chat.Message")
        }
    }
}
