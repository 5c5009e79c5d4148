import LowbandDeterminism
import LowbandFixtures
import LowbandLZ4
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

@Suite struct CompressionPolicyTests {
    private func wireFlags(_ payload: [UInt8], _ policy: CompressionPolicy = CompressionPolicy()) throws -> (FrameFlags, Int) {
        let encoder = FrameEncoder(configuration: FrameConfiguration(compression: policy))
        let wire = try encoder.bytes(of: Frame(flags: .response, command: .history, sequence: 1, payload: payload))
        return (FrameFlags(rawValue: wire.getInteger(at: 1)!), wire.readableBytes - FrameHeader.size)
    }

    @Test func smallPayloadsAreNeverCompressed() throws {
        let payload = [UInt8](repeating: 0x61, count: 255)
        let (flags, length) = try wireFlags(payload)
        #expect(!flags.contains(.compressed))
        #expect(length == 255)
    }

    @Test func compressiblePayloadAtTheThresholdIsCompressed() throws {
        let payload = [UInt8](repeating: 0x61, count: 256)
        let (flags, length) = try wireFlags(payload)
        #expect(flags.contains(.compressed))
        #expect(length < 64)
    }

    @Test func incompressiblePayloadIsSentAsIs() throws {
        var random = SeededGenerator(seed: 3)
        let payload = (0 ..< 4_096).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        let (flags, length) = try wireFlags(payload)
        #expect(!flags.contains(.compressed), "LZ4 output would be larger, so the raw payload goes")
        #expect(length == payload.count)
    }

    @Test func disabledPolicyNeverCompresses() throws {
        let (flags, _) = try wireFlags([UInt8](repeating: 0, count: 100_000), .disabled)
        #expect(!flags.contains(.compressed))
    }

    @Test func sharedDictionaryShrinksSmallMessagesAndRoundTrips() throws {
        var fixtures = MessengerFixtures(seed: 11)
        let samples = try (0 ..< 200).map { _ in try Frame.push(fixtures.newMessagePush(), sequence: 0).payload }
        let policy = CompressionPolicy(minimumSize: 64, dictionary: LZ4Dictionary(samples: samples))
        let configuration = FrameConfiguration(compression: policy)
        let frame = try Frame.push(fixtures.newMessagePush(), sequence: 1)
        let plain = try FrameEncoder(configuration: FrameConfiguration(compression: CompressionPolicy(minimumSize: 64))).bytes(of: frame)
        var withDictionary = try FrameEncoder(configuration: configuration).bytes(of: frame)
        #expect(withDictionary.readableBytes < plain.readableBytes)
        var decoder = FrameDecoder(configuration: configuration)
        #expect(try decoder.nextFrame(from: &withDictionary)?.frame.payload == frame.payload)
    }
}
