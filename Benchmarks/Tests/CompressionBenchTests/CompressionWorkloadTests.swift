import CompressionBench
import LowbandFixtures
import LowbandLZ4
import LowbandTestSupport
import LowbandWire
import Testing

@Suite struct CompressionWorkloadTests {
    @Test func inputsAndMethodsHaveTheFixedIDs() {
        #expect(Shared.inputs.map(\.id) == ["login-reply-50", "history-page-50", "push-1", "contacts-500", "small-messages"])
        #expect(Shared.methodIDs == ["none", "lz4-a1", "lz4-a4", "lz4-a16", "lz4hc-9", "lz4hc-12", "lz4-dict", "zstd-3", "zstd-3-dict", "zlib-1", "zlib-6"])
        #expect(Shared.input("small-messages").payloads.count == 1_000)
        for input in Shared.inputs where input.id != "small-messages" {
            #expect(input.payloads.count == 1, "\(input.id)")
        }
    }

    @Test func inputsAreTheSeededFramePayloads() throws {
        // Same seed, same bytes; the push input is the first message of the stream's generator.
        let again = try CompressionInput.catalogue()
        #expect(again.map(\.payloads) == Shared.inputs.map(\.payloads))
        var fixtures = MessengerFixtures(seed: 1)
        let login = try Frame.response(fixtures.loginReply(chats: 50), sequence: 7).payload
        #expect(Shared.input("login-reply-50").payloads == [login])
        let decoded = try Frame(command: .history, sequence: 1, payload: Shared.input("history-page-50").payloads[0]).decode(HistoryReply.self)
        #expect(decoded.messages.count == 50)
        let contacts = try Frame(command: .login, sequence: 1, payload: Shared.input("contacts-500").payloads[0]).decode(LoginReply.self)
        #expect(contacts.contacts.count == 500 && contacts.chats.isEmpty)
        for payload in Shared.input("small-messages").payloads.prefix(50) {
            _ = try Frame(command: .pushNewMessage, sequence: 1, payload: payload).decode(NewMessagePush.self)
        }
    }

    @Test(arguments: Shared.methodIDs)
    func everyMethodRoundTripsEveryInputByteForByte(methodID: String) throws {
        for input in Shared.inputs {
            let workload = try CompressionWorkload(input: input, method: Shared.method(methodID))
            try workload.verifyRoundTrip()
            #expect(workload.restoredPayloads() == input.payloads, "\(input.id)/\(methodID)")
            #expect(workload.inputBytes == input.byteCount)
            #expect(try workload.decompress() == input.byteCount)
        }
    }

    @Test(arguments: Shared.methodIDs.filter { $0.hasPrefix("lz4") })
    func lz4SizesAreWhatTheWrapperReturns(methodID: String) throws {
        let method = Shared.method(methodID)
        guard case .lz4(let level, let dictionary) = method.algorithm else {
            Issue.record("\(methodID) is not an LZ4 method")
            return
        }
        for input in Shared.inputs {
            let workload = try CompressionWorkload(input: input, method: method)
            let expected = try input.payloads.map { try LZ4Block.compress($0, level: level, dictionary: dictionary) }
            #expect(workload.compressedPayloads() == expected, "\(input.id)/\(methodID)")
            #expect(workload.compressedBytes == expected.reduce(0) { $0 + $1.count })
            #expect(try workload.compress() == workload.compressedBytes)
        }
    }

    @Test func noneReportsTheInputSize() throws {
        for input in Shared.inputs {
            let workload = try CompressionWorkload(input: input, method: Shared.method("none"))
            #expect(workload.compressedBytes == input.byteCount)
            #expect(workload.compressedPayloads() == input.payloads)
        }
    }

    @Test func aDictionaryShrinksSmallMessagesBelowPlainLZ4() throws {
        let input = Shared.input("small-messages")
        let plain = try CompressionWorkload(input: input, method: Shared.method("lz4-a1")).compressedBytes
        let withDictionary = try CompressionWorkload(input: input, method: Shared.method("lz4-dict")).compressedBytes
        #expect(withDictionary < plain)
        // Plain LZ4 finds little in a single small push; the dictionary is worth more than a few percent.
        #expect(Double(withDictionary) < 0.8 * Double(plain), "lz4-dict \(withDictionary) bytes vs lz4-a1 \(plain) bytes")
    }

    @Test func theDictionaryIsTheWiresShippedOne() {
        #expect(Shared.dictionary == WireDictionary.messenger1.dictionary)
    }

    @Test func theDictionaryComesFromAnotherSeedThanTheMeasuredPayloads() throws {
        let dictionary = Shared.dictionary.bytes
        #expect(dictionary.count == 32 * 1_024)
        #expect(dictionary == (try CompressionDictionary.make(seed: CompressionDictionary.sampleSeed)).bytes)
        #expect(dictionary != (try CompressionDictionary.make(seed: 1)).bytes)
        // No measured push (seed 1) lies inside the dictionary (seed 2): a payload that did would
        // have every one of its 32-byte windows there too.
        let window = 32
        var windows = Set<ArraySlice<UInt8>>()
        for start in 0 ... dictionary.count - window {
            windows.insert(dictionary[start ..< start + window])
        }
        for (index, payload) in Shared.input("small-messages").payloads.enumerated() {
            // Wire format v2 has pushes shorter than a window: those are looked for whole.
            let contained = payload.count < window
                ? dictionary.firstRange(of: payload) != nil
                : stride(from: 0, through: payload.count - window, by: 8).allSatisfy { windows.contains(payload[$0 ..< $0 + window]) }
            #expect(!contained, "measured push \(index) is in the dictionary")
        }
    }

    @Test func invalidMethodsFailWithClearErrors() {
        let input = Shared.input("push-1")
        #expect(throws: CompressionBenchError.self) {
            try CompressionWorkload(input: input, method: CompressionMethod(id: "zlib-0", algorithm: .zlib(level: 0)))
        }
        #expect(throws: CompressionBenchError.self) {
            try CompressionWorkload(input: input, method: CompressionMethod(id: "lz4hc-13", algorithm: .lz4(.high(level: 13), dictionary: nil)))
        }
        #expect(throws: CompressionBenchError.self) { try CompressionWorkload(input: CompressionInput(id: "empty", payloads: []), method: Shared.method("none")) }
    }
}
