import LowbandMessagePack
import LowbandWire
import Testing

/// Payloads on which the `msgpack-codable` fuzz target (docs/FUZZING.md) found the hand-written
/// fast path and the Codable decoder disagreeing; both must accept or refuse alike.
@Suite struct FastPathFuzzRegressionTests {
    /// Fuzz finding: an unknown key that is not UTF-8 (`wid\x8fh` for `width`, inside an
    /// attachment) made the Codable decoder refuse a login reply the fast path accepted.
    @Test func anUnknownKeyThatIsNotUTF8IsRefusedByBothDecoders() throws {
        // {"id": 1, "name": "Ann", "phone": "+1", "updatedAt": 5, "wid\x8fh": 0}
        var writer = MessagePackWriter()
        try writer.writeMapHeader(count: 5)
        for (key, value) in [("id", MessagePackValue.int(1)), ("name", "Ann"), ("phone", "+1"), ("updatedAt", .int(5))] {
            try writer.write(key)
            try writer.write(value)
        }
        try writer.writeStringHeader(count: 4)
        writer.writeRaw([0x77, 0x69, 0x64, 0x8F])
        writer.write(Int64(0))
        let payload = writer.bytes

        #expect {
            try Contact(messagePackBytes: payload)
        } throws: { error in
            (error as? MessagePackError)?.code == .invalidUTF8
        }
        #expect {
            try MessagePackDecoder().decode(Contact.self, from: payload)
        } throws: { error in
            (error as? MessagePackError)?.code == .invalidUTF8
        }
        // The same map with a UTF-8 unknown key decodes through both.
        var valid = payload
        valid[valid.count - 2] = 0x68
        #expect(try Contact(messagePackBytes: valid) == MessagePackDecoder().decode(Contact.self, from: valid))
    }
}
