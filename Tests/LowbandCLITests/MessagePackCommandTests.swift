import ArgumentParser
@testable import LowbandCLI
import LowbandMessagePack
import LowbandProcess
import LowbandTestSupport
import Testing

/// Runs the built `lowband msgpack <subcommand>` with `stdin`.
private func lowband(_ arguments: [String], stdin: [UInt8] = []) async throws -> ExternalProcess.Result {
    try await LowbandBinary.run(["msgpack"] + arguments, stdin: stdin)
}

/// Concatenated MessagePack bytes of `values`.
private func stream(_ values: [MessagePackValue]) throws -> [UInt8] {
    var writer = MessagePackWriter()
    for value in values { try writer.write(value) }
    return writer.bytes
}

/// Whether `python3` with the `msgpack` module can run here.
private func pythonMsgpackAvailable() async -> Bool {
    (try? await ExternalProcess.run("python3", ["-c", "import msgpack"]).status) == 0
}

/// The bytes a Python program writes to stdout, and its stderr lines.
private func python(_ program: String) async throws -> (stdout: [UInt8], stderrLines: [String]) {
    let result = try await ExternalProcess.run("python3", ["-c", "import msgpack, sys, datetime\n" + program])
    try #require(result.status == 0, "python3 failed: \(result.stderrText)")
    return (result.stdout, result.stderrText.split(separator: "\n").map(String.init))
}

@Suite("lowband msgpack")
struct MessagePackCommandTests {
    @Test("arguments parse into the subcommands")
    func argumentParsing() throws {
        let toJSON = try #require(try MessagePackCommand.parseAsRoot(["to-json"]) as? MessagePackCommand.ToJSON)
        #expect(!toJSON.pretty)
        let pretty = try #require(try MessagePackCommand.parseAsRoot(["to-json", "--pretty"]) as? MessagePackCommand.ToJSON)
        #expect(pretty.pretty)
        #expect(try MessagePackCommand.parseAsRoot(["from-json"]) is MessagePackCommand.FromJSON)
        #expect(throws: (any Error).self) { try MessagePackCommand.parseAsRoot(["from-json", "--pretty"]) }
        #expect(throws: (any Error).self) { try MessagePackCommand.parseAsRoot(["to-json", "extra"]) }
        #expect(throws: (any Error).self) { try MessagePackCommand.parseAsRoot(["to-yaml"]) }
        #expect(MessagePackCommand.configuration.commandName == "msgpack")
    }

    @Test("to-json | from-json gives back the bytes of a multi-value stream", arguments: [false, true])
    func pipeRoundTrip(pretty: Bool) async throws {
        let values = MessagePackSamples.edgeCases.map(\.value)
            + MessagePackSamples.randomValues(count: 200, seed: 77, options: .init(extensionTypes: -128 ... 127))
        let bytes = try stream(values)
        let json = try await lowband(["to-json"] + (pretty ? ["--pretty"] : []), stdin: bytes)
        #expect(json.status == 0 && json.stderr.isEmpty, "\(json.stderrText)")
        if !pretty {
            #expect(json.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).count == values.count + 1)
        }
        let back = try await lowband(["from-json"], stdin: json.stdout)
        #expect(back.status == 0 && back.stderr.isEmpty, "\(back.stderrText)")
        #expect(back.stdout == bytes)
    }

    @Test("empty input gives empty output both ways", arguments: ["to-json", "from-json"])
    func emptyInput(subcommand: String) async throws {
        let result = try await lowband([subcommand], stdin: subcommand == "from-json" ? Array(" \n".utf8) : [])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test("JSON text fed to to-json is decoded as MessagePack, and a warning says what it looks like")
    func jsonTextIsNamed() async throws {
        let result = try await lowband(["to-json"], stdin: Array("{\"a\":1}\n".utf8))
        #expect(result.status == 0)
        // Every ASCII byte is a positive fixint: 123 is '{'.
        #expect(result.stdoutText.hasPrefix("123\n34\n97\n"))
        #expect(result.stderrText == "lowband msgpack to-json: warning: the input looks like JSON text, not MessagePack (it starts with '{'); for JSON → MessagePack use `lowband msgpack from-json`\n")
        // Real MessagePack of the same document says nothing.
        let real = try await lowband(["to-json"], stdin: [0x81, 0xa1, 0x61, 0x01])
        #expect(real.stdoutText == "{\"a\":1}\n" && real.stderr.isEmpty)
    }

    @Test("bad MessagePack: the values before it are printed, then one error line")
    func badMessagePack() async throws {
        for (bytes, offset) in [(try stream([1, "a"]) + [0xc1], 3), (try stream([[1, 2]]) + [0xcd, 0x01], 3)] {
            let result = try await lowband(["to-json"], stdin: bytes)
            #expect(result.status == 1)
            #expect(result.stdoutText.hasPrefix(bytes.first == 0x01 ? "1\n\"a\"\n" : "[1,2]\n"))
            let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "\(result.stderrText)")
            #expect(result.stderrText.hasPrefix("lowband msgpack to-json: error: "), "\(result.stderrText)")
            #expect(result.stderrText.contains("(byte offset \(offset))"), "\(result.stderrText)")
            #expect(!result.stderrText.contains("Fatal error"))
        }
    }

    @Test("bad JSON: the documents before it are written, then one error line naming line and column")
    func badJSON() async throws {
        for (json, place) in [("1 \"x\"\n[2,\n  {\"$bin\": 3}]", "line 3, column 12"), ("{}\n{\"a\": NaN}", "line 2, column 7"), ("[] 18446744073709551616", "line 1, column 4")] {
            let result = try await lowband(["from-json"], stdin: Array(json.utf8))
            #expect(result.status == 1)
            var parser = MessagePackJSONParser(Array(json.utf8))
            let good = try parser.next() ?? .nil
            #expect(result.stdout.starts(with: try good.encoded()))
            #expect(result.stderrText.hasPrefix("lowband msgpack from-json: error: "), "\(result.stderrText)")
            #expect(result.stderrText.contains(place), "\(result.stderrText)")
            #expect(result.stderrText.filter { $0 == "\n" }.count == 1, "\(result.stderrText)")
        }
    }

    @Test("bytes from msgpack-python convert to the documented JSON text", .enabled { await pythonMsgpackAvailable() })
    func pythonToJSON() async throws {
        let (bytes, _) = try await python("""
        T = msgpack.Timestamp
        values = [None, True, False, 0, -1, 127, 128, 2**64 - 1, -2**63, 1.5, -0.0, float('nan'), float('-inf'), 1e300,
                  "", "Привет 你好 👍🏽", "tab\\t\\"q\\" \\x01", b"", b"\\x00\\x01\\xff", msgpack.ExtType(5, b"abc"), msgpack.ExtType(127, b""),
                  T(0, 0), T(2**31, 1), T(-1, 999999999), T(-62135596800, 0), T(253402300799, 999999999), T(2**34, 0),
                  [], {}, [[], {}], {"b": 1, "a": [1, {"c": None}]}, {1: "x", "1": "y"}, {"$k": 1}]
        out = b"".join(msgpack.packb(v) for v in values) + msgpack.packb(0.25, use_single_float=True)
        sys.stdout.buffer.write(out)
        """)
        let result = try await lowband(["to-json"], stdin: bytes)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == #"""
        null
        true
        false
        0
        -1
        127
        128
        18446744073709551615
        -9223372036854775808
        1.5
        -0.0
        {"$float64":"NaN"}
        {"$float64":"-Infinity"}
        1e+300
        ""
        "Привет 你好 👍🏽"
        "tab\t\"q\" \u0001"
        {"$bin":""}
        {"$bin":"AAH/"}
        {"$ext":5,"data":"YWJj"}
        {"$ext":127,"data":""}
        {"$timestamp":"1970-01-01T00:00:00Z","seconds":0,"nanoseconds":0}
        {"$timestamp":"2038-01-19T03:14:08.000000001Z","seconds":2147483648,"nanoseconds":1}
        {"$timestamp":"1969-12-31T23:59:59.999999999Z","seconds":-1,"nanoseconds":999999999}
        {"$timestamp":"0001-01-01T00:00:00Z","seconds":-62135596800,"nanoseconds":0}
        {"$timestamp":"9999-12-31T23:59:59.999999999Z","seconds":253402300799,"nanoseconds":999999999}
        {"$timestamp":"2514-05-30T01:53:04Z","seconds":17179869184,"nanoseconds":0}
        []
        {}
        [[],{}]
        {"b":1,"a":[1,{"c":null}]}
        {"$map":[[1,"x"],["1","y"]]}
        {"$map":[["$k",1]]}
        {"$float32":0.25}

        """#)
        let back = try await lowband(["from-json"], stdin: result.stdout)
        #expect(back.stdout == bytes)
    }

    @Test("timestamp text agrees with Python's datetime across years 1…9999", .enabled { await pythonMsgpackAvailable() })
    func pythonTimestampText() async throws {
        let (bytes, expected) = try await python("""
        import random
        rng = random.Random(2038)
        epoch = datetime.datetime(1970, 1, 1)
        for _ in range(500):
            seconds = rng.randrange(-62135596800, 253402300800)
            nanos = rng.choice([0, rng.randrange(1, 10**9)])
            sys.stdout.buffer.write(msgpack.packb(msgpack.Timestamp(seconds, nanos)))
            text = (epoch + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")
            print(text.rjust(19, "0") + ("." + str(nanos).rjust(9, "0") if nanos else "") + "Z", file=sys.stderr)
        """)
        let result = try await lowband(["to-json"], stdin: bytes)
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        try #require(lines.count == expected.count)
        for (line, text) in zip(lines, expected) {
            #expect(line.hasPrefix("{\"$timestamp\":\"\(text)\""), "\(line) vs \(text)")
        }
    }

    @Test("from-json output unpacks in msgpack-python", .enabled { await pythonMsgpackAvailable() })
    func pythonFromJSON() async throws {
        let json = #"""
        {"name": "Ада", "n": 18446744073709551615, "f": -0.0, "bin": {"$bin": "AAH/"}, "ext": {"$ext": 9, "data": "YQ=="}}
        {"$map": [[1, [true, null]], ["$x", {"$float32": 0.5}]]} {"$timestamp": "2024-05-01T12:00:00.5Z"}
        """#
        let packed = try await lowband(["from-json"], stdin: Array(json.utf8))
        #expect(packed.status == 0, "\(packed.stderrText)")
        let result = try await ExternalProcess.run("python3", ["-c", """
        import msgpack, sys
        for value in msgpack.Unpacker(sys.stdin.buffer, raw=False, strict_map_key=False):
            print(repr(value))
        """], stdin: packed.stdout)
        #expect(result.stdoutText == """
        {'name': 'Ада', 'n': 18446744073709551615, 'f': -0.0, 'bin': b'\\x00\\x01\\xff', 'ext': ExtType(code=9, data=b'a')}
        {1: [True, None], '$x': 0.5}
        Timestamp(seconds=1714564800, nanoseconds=500000000)

        """, "\(result.stderrText)")
    }
}
