import LowbandProcess
import LowbandTestSupport

/// Python's `msgpack` package, the reference implementation, driven in batches.
///
/// Values travel as records (a 4-byte big-endian length, then the bytes) through one process
/// per batch, never one process per value. The scripts are embedded here so SwiftPM sees no
/// unhandled files in the test target.
enum PythonPeer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What Python made of one record: bytes, or the text of the exception it raised.
    enum Outcome: Equatable {
        case bytes([UInt8])
        case error(String)
    }

    /// Each record unpacked (`raw=False, strict_map_key=False, timestamp=0`) and packed again
    /// (`use_bin_type=True`).
    static func repack(_ records: [[UInt8]]) async throws -> [Outcome] {
        let output = try await run(repackScript, [], stdin: frame(records))
        var outcomes: [Outcome] = []
        var offset = 0
        while offset < output.count {
            guard offset + 5 <= output.count else { throw Failure(description: "Python's output ends inside a record header") }
            let status = output[offset]
            let count = output[offset + 1 ..< offset + 5].reduce(0) { $0 << 8 | Int($1) }
            offset += 5
            guard offset + count <= output.count else { throw Failure(description: "Python's output ends inside a record") }
            let body = Array(output[offset ..< offset + count])
            offset += count
            outcomes.append(status == 0 ? .bytes(body) : .error(String(decoding: body, as: UTF8.self)))
        }
        return outcomes
    }

    /// `count` values from Python's own seeded generator, each packed by `msgpack.packb`.
    static func generate(seed: Int, count: Int) async throws -> [[UInt8]] {
        try await unframe(run(generatorScript, ["generate", String(seed), String(count)]))
    }

    /// Has Python regenerate its values and check that `records` unpack to equal values
    /// (same types, same map order, NaN compared by bits); returns Python's complaints.
    static func verify(seed: Int, count: Int, records: [[UInt8]]) async throws -> String {
        try await String(decoding: run(generatorScript, ["verify", String(seed), String(count)], stdin: frame(records)), as: UTF8.self)
    }

    // MARK: Plumbing

    static func frame(_ records: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + 4 + $1.count })
        for record in records {
            let count = UInt32(record.count)
            bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)]
            bytes += record
        }
        return bytes
    }

    static func unframe(_ bytes: [UInt8]) throws -> [[UInt8]] {
        var records: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { throw Failure(description: "record stream ends inside a length") }
            let count = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard offset + count <= bytes.count else { throw Failure(description: "record stream ends inside a record") }
            records.append(Array(bytes[offset ..< offset + count]))
            offset += count
        }
        return records
    }

    /// Runs a script with `python3`, failing loudly when Python or its msgpack package is missing.
    private static func run(_ script: String, _ arguments: [String], stdin: [UInt8] = []) async throws -> [UInt8] {
        if let missing = await missing() { throw missing }
        let result = try await ExternalProcess.run("python3", ["-c", script] + arguments, stdin: stdin)
        guard result.status == 0 else {
            throw Failure(description: "python3 exited with status \(result.status): \(result.stderrText)")
        }
        return result.stdout
    }

    /// Why Python's msgpack cannot be used, or nil when it can (a few milliseconds: asked before
    /// each use).
    private static func missing() async -> Failure? {
        let probe: ExternalProcess.Result
        do {
            probe = try await ExternalProcess.run("python3", ["-c", "import msgpack"])
        } catch {
            return Failure(description: "python3 is not installed (\(error)). Run the repository's setup script, which installs python3 and runs `pip install msgpack`.")
        }
        guard probe.status == 0 else {
            return Failure(description: "Python's msgpack package is missing: run the repository's setup script (it runs `pip install msgpack`). python3 said: \(probe.stderrText)")
        }
        return nil
    }

    /// Unpacks and repacks every record of stdin.
    private static let repackScript = #"""
    import struct, sys
    import msgpack

    data = sys.stdin.buffer.read()
    out = bytearray()
    pos = 0
    while pos < len(data):
        (size,) = struct.unpack_from(">I", data, pos)
        raw = data[pos + 4 : pos + 4 + size]
        pos += 4 + size
        try:
            value = msgpack.unpackb(raw, raw=False, strict_map_key=False, timestamp=0)
            body, status = msgpack.packb(value, use_bin_type=True), 0
        except Exception as error:
            body, status = repr(error).encode(), 1
        out += struct.pack(">BI", status, len(body)) + body
    sys.stdout.buffer.write(out)
    """#

    /// A seeded value generator of Python's own, independent of the Swift one.
    private static let generatorScript = #"""
    import math, random, struct, sys
    import msgpack
    from msgpack import ExtType, Timestamp

    TEXT = [(0x20, 0x7E), (0xA0, 0x7FF), (0x400, 0x4FF), (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3),
            (0xE000, 0xFFFD), (0x1F300, 0x1FAFF), (0x10000, 0x10FFFF)]

    def length(r, limit):
        if r.random() < 0.03:
            return r.choice([31, 32, 255, 256, 257, 1000])
        return r.randint(0, limit)

    def text(r, limit=30):
        chars = []
        for _ in range(length(r, limit)):
            low, high = r.choice(TEXT)
            chars.append(chr(r.randint(low, high)))
        return "".join(chars)

    def blob(r, limit=30):
        return bytes(r.getrandbits(8) for _ in range(length(r, limit)))

    def integer(r):
        low, high = r.choice([(0, 127), (-32, -1), (128, 255), (256, 65535), (65536, 2**32 - 1), (2**32, 2**63 - 1),
                              (2**63, 2**64 - 1), (-128, -33), (-32768, -129), (-2**31, -32769), (-2**63, -2**31 - 1)])
        return r.randint(low, high)

    def double(r):
        kind = r.randrange(4)
        if kind == 0:
            return r.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308])
        if kind == 1:
            return r.randint(-10**6, 10**6) / 1000
        return struct.unpack(">d", r.getrandbits(64).to_bytes(8, "big"))[0]

    def timestamp(r):
        low, high = r.choice([(0, 2**32 - 1), (0, 2**34 - 1), (-62135596800, 253402300799), (-2**63, 2**63 - 1)])
        return Timestamp(r.randint(low, high), r.choice([0, r.randrange(10**9)]))

    def value(r, depth=0):
        kind = r.randrange(12 if depth < 4 else 9)
        if kind == 0: return None
        if kind == 1: return r.random() < 0.5
        if kind in (2, 3): return integer(r)
        if kind == 4: return double(r)
        if kind == 5: return text(r)
        if kind == 6: return blob(r)
        if kind == 7: return ExtType(r.randrange(128), blob(r))
        if kind == 8: return timestamp(r)
        if kind in (9, 10): return [value(r, depth + 1) for _ in range(r.randrange(9))]
        entries = {}
        for _ in range(r.randrange(9)):
            key = integer(r) if r.random() < 0.3 else text(r, 10)
            entries[key] = value(r, depth + 1)
        return entries

    def same(a, b):
        if type(a) is not type(b):
            return False
        if isinstance(a, float):
            return struct.pack(">d", a) == struct.pack(">d", b)
        if isinstance(a, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if isinstance(a, dict):
            return len(a) == len(b) and all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(a.items(), b.items()))
        if isinstance(a, ExtType):
            return a.code == b.code and a.data == b.data
        if isinstance(a, Timestamp):
            return a.seconds == b.seconds and a.nanoseconds == b.nanoseconds
        return a == b

    mode, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    r = random.Random(seed)
    values = [value(r) for _ in range(count)]
    if mode == "generate":
        out = bytearray()
        for v in values:
            packed = msgpack.packb(v, use_bin_type=True)
            out += struct.pack(">I", len(packed)) + packed
        sys.stdout.buffer.write(out)
    else:
        data = sys.stdin.buffer.read()
        pos, index, problems = 0, 0, []
        while pos < len(data):
            (size,) = struct.unpack_from(">I", data, pos)
            raw = data[pos + 4 : pos + 4 + size]
            pos += 4 + size
            try:
                back = msgpack.unpackb(raw, raw=False, strict_map_key=False, timestamp=0)
                if not same(values[index], back):
                    problems.append("value %d: sent %r, got back %r" % (index, values[index], back))
            except Exception as error:
                problems.append("value %d: %r" % (index, error))
            index += 1
        if index != count:
            problems.append("got %d records for %d values" % (index, count))
        sys.stdout.write("\n".join(problems[:20]))
    """#
}
