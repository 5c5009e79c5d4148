import LowbandMessagePack
import LowbandWire
import Testing

/// Payloads on which the `msgpack-codable` fuzz target (docs/FUZZING.md) found the hand-written
/// fast path and the Codable decoder disagreeing; both must accept or refuse alike.
@Suite struct FastPathFuzzRegressionTests {
    /// Fuzz finding (wire format v1): an unknown key that was not UTF-8 (`wid\x8fh` for `width`)
    /// made the Codable decoder refuse a value the fast path accepted. v2 has no keys; its
    /// counterpart is a field a later version appends, which both readers skip unread, valid
    /// UTF-8 or not.
    @Test func anAppendedFieldThatIsNotUTF8IsSkippedByBothDecoders() throws {
        // Contact [1, "Ann", "+1", 5, nil, nil, "wid\x8f"]
        var writer = MessagePackWriter()
        try writer.writeArrayHeader(count: 7)
        for value in [MessagePackValue.int(1), "Ann", "+1", .int(5), .nil, .nil] { try writer.write(value) }
        try writer.writeStringHeader(count: 4)
        writer.writeRaw([0x77, 0x69, 0x64, 0x8F])
        let payload = writer.bytes

        let expected = Contact(id: 1, name: "Ann", phone: "+1", updatedAt: 5)
        #expect(try Contact(messagePackBytes: payload) == expected)
        #expect(try MessagePackDecoder(userInfo: WireFormat.v2.userInfo).decode(Contact.self, from: payload) == expected)
    }
}
