import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband codecs compare --proto SCHEMA.proto --message NAME`: each payload also encoded by the
/// user's schema, its bytes equal to Python protobuf's `ParseDict(…).SerializeToString()`; a
/// payload the schema cannot encode, an unknown message and a schema that does not compile named
/// on one line each, exit 2.
@Suite struct CodecsProtobufCommandTests {
    static let schema = """
        syntax = "proto3";
        package chat;
        message Attachment { string url = 1; int32 w = 2; int64 size = 5; }
        message Message {
          string id = 1; int64 chat = 2; string text = 3; repeated Attachment attachments = 4; int64 sent = 5;
          map<string, int32> reactions = 9; repeated int64 seq_numbers = 10; double ratio = 11; bool pinned = 12;
        }
        """
    static let payloads = """
        {"id": "m-1", "chat": 42, "text": "Привет https://example.org/a/b", "attachments": [{"url": "https://cdn.example.com/p.jpg", "w": 1280, "size": "5000000000"}], "sent": 1732873915123, "reactions": {"👍": 3}, "seqNumbers": [1, 2, 300], "ratio": 0.5, "pinned": true}
        {"id": "m-2", "chat": 7, "text": "ok", "seq_numbers": [], "pinned": false}
        """

    private static let peer = """
        import json, sys
        from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(sys.argv[1], "rb").read())
        pool = descriptor_pool.DescriptorPool()
        for f in fds.file: pool.Add(f)
        cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("chat.Message"))
        print(sum(len(json_format.ParseDict(json.loads(line), cls()).SerializeToString()) for line in open(sys.argv[2], encoding="utf-8") if line.strip()))
        """

    @Test func protobufSizesArePythonsAndABadPayloadIsNamedByPath() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-proto")
        let proto = directory.file("chat.proto")
        let good = directory.file("messages.jsonl")
        let bad = directory.file("bad.json")
        try Data(Self.schema.utf8).write(to: URL(fileURLWithPath: proto))
        try Data(Self.payloads.utf8).write(to: URL(fileURLWithPath: good))
        try Data(#"{"id": "m-3", "attachments": [{}, {"w": "wide"}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let descriptor = directory.file("chat.pb")
        let protoc = try await ExternalProcess.run("/usr/bin/env", ["protoc", "--include_imports", "--descriptor_set_out=\(descriptor)", "-I", directory.path, proto])
        try #require(protoc.status == 0, "\(protoc.stderrText)")
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", Self.peer, descriptor, good])
        try #require(python.status == 0, "\(python.stderrText)")
        let out = directory.file("codecs.csv")
        let result = try await LowbandBinary.run(["codecs", "compare", good, bad, "--proto", proto, "--message", "Message", "--repeats", "1", "--profiles", "edge", "--out", out])
        #expect(result.status == 2)
        #expect(result.stderrText == "lowband codecs compare: error: \(bad)#1: attachments[1].w: a string where int32 is declared\n")
        #expect(result.stdoutText.contains("left out 1 bad file"))
        let samples = try String(contentsOfFile: directory.file("codecs.samples.csv"), encoding: .utf8)
        let ours = samples.split(separator: "\n").filter { $0.hasPrefix("codecs,protobuf@\(good),bytes,") }.compactMap { Double($0.split(separator: ",").last ?? "") }.reduce(0, +)
        #expect(ours == Double(python.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), "python \(python.stdoutText), ours \(ours)")
        // Counted too, where valgrind is installed: the count run compiled the schema as well.
        if ExternalProcess.which("valgrind") != nil {
            #expect(samples.contains("codecs,protobuf@\(good),encode_instructions,"), "\(result.stdoutText)")
        }
    }

    /// The well-known types a messaging schema uses (issue 37's user hit Timestamp at once):
    /// compared, checked by decoding, and as many bytes as Python's.
    @Test func wellKnownTypesAreEncodedAsPythonEncodesThem() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-proto")
        let proto = directory.file("s.proto")
        let payload = directory.file("w.json")
        try Data("""
            syntax = "proto3";
            package p;
            import "google/protobuf/any.proto";
            import "google/protobuf/duration.proto";
            import "google/protobuf/struct.proto";
            import "google/protobuf/timestamp.proto";
            message M { string id = 1; google.protobuf.Timestamp sent = 2; google.protobuf.Struct meta = 3; google.protobuf.Any extra = 4; google.protobuf.Duration ttl = 5; }
            """.utf8).write(to: URL(fileURLWithPath: proto))
        try Data(#"{"id": "a", "sent": "2024-11-29T10:11:55.123+01:00", "meta": {"x": [1, null, "y"]}, "extra": {"@type": "type.googleapis.com/p.M", "id": "inner"}, "ttl": "-1.5s"}"#.utf8)
            .write(to: URL(fileURLWithPath: payload))
        let descriptor = directory.file("s.pb")
        let protoc = try await ExternalProcess.run("/usr/bin/env", ["protoc", "--include_imports", "--descriptor_set_out=\(descriptor)", "-I", directory.path, proto])
        try #require(protoc.status == 0, "\(protoc.stderrText)")
        let peer = """
            import json, sys
            from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
            fds = descriptor_pb2.FileDescriptorSet.FromString(open(sys.argv[1], "rb").read())
            pool = descriptor_pool.DescriptorPool()
            for f in fds.file: pool.Add(f)
            cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("p.M"))
            print(len(json_format.ParseDict(json.load(open(sys.argv[2], encoding="utf-8")), cls(), descriptor_pool=pool).SerializeToString()))
            """
        let python = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", peer, descriptor, payload])
        try #require(python.status == 0, "\(python.stderrText)")
        let out = directory.file("codecs.csv")
        let result = try await LowbandBinary.run(["codecs", "compare", payload, "--proto", proto, "--message", "M", "--repeats", "1", "--profiles", "edge", "--out", out])
        #expect(result.status == 0, "\(result.stderrText)")
        let samples = try String(contentsOfFile: directory.file("codecs.samples.csv"), encoding: .utf8)
        let ours = samples.split(separator: "\n").first { $0.hasPrefix("codecs,protobuf@\(payload),bytes,") }?.split(separator: ",").last.map(String.init)
        #expect(ours == python.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "python \(python.stdoutText), ours \(ours ?? "none")")
    }

    @Test(arguments: [
        ("syntax = \"proto3\";\nmessage A { int32 x = 1 }\n", "Message", "does not compile: "),
        ("syntax = \"proto3\";\npackage p;\nmessage A { int32 x = 1; }\n", "B", "no message B in the schema; it has p.A"),
    ])
    func aSchemaThatCannotBeUsedIsNamed(schema: String, message: String, expected: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-codecs-proto")
        let proto = directory.file("s.proto")
        let payload = directory.file("p.json")
        try Data(schema.utf8).write(to: URL(fileURLWithPath: proto))
        try Data(#"{"x": 1}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let result = try await LowbandBinary.run(["codecs", "compare", payload, "--proto", proto, "--message", message, "--out", directory.file("c.csv")])
        #expect(result.status == 2)
        #expect(result.stderrText.hasPrefix("lowband codecs compare: error: ") && result.stderrText.contains(expected), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.csv")))
    }
}
