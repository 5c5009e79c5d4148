import LowbandClient
import LowbandWire
import LowbandShaper
import PushBench
import Testing

/// The harness on the perfect profile: real server, proxy and client; no timing asserted.
@Suite struct PushToVisibleTests {
    @Test func pushesBecomeVisibleInTheChatScreenWithTheirTextAndAreCached() async throws {
        let harness = try await PushToVisibleHarness.start(profileNamed: "perfect")
        var samples: [PushSample] = []
        do {
            for _ in 0 ..< 5 { samples.append(try await harness.measure()) }
        } catch {
            try await harness.stop()
            throw error
        }
        let texts = (1 ... 5).map { harness.configuration.text(ofPush: $0) }
        #expect(samples.map(\.message.text) == texts)
        #expect(samples.map(\.push.shownText) == texts)
        #expect(samples.allSatisfy { $0.message.chatID == harness.chatID && $0.message.senderID == harness.senderID })

        // At the bottom of the list, in order, below the history the chat opened with.
        let rows = try await harness.screenRows()
        #expect(rows.suffix(5).map(\.message.text) == texts)
        #expect(rows.suffix(5).map(\.id) == samples.map { .message($0.message.id) })
        #expect(rows.count > 5, "the first page is on screen too")

        // Stored in the client's SQLite cache before it was shown.
        let ids = samples.map(\.message.id)
        let chatID = harness.chatID
        let cached = try await harness.client.withEngine { engine in
            try ids.map { try engine.messages.message(chatID: chatID, id: $0)?.text }
        }
        #expect(cached == texts)

        // The frame counted on the wire is the push frame the server encodes, LZ4-compressed
        // with the wire dictionary the engine and the server agreed at login.
        for sample in samples {
            var frame = try Frame.push(NewMessagePush(message: sample.message), sequence: 0)
            frame.compressionDictionary = WireDictionary.messenger1.id
            let encoded = try FrameEncoder().bytes(of: frame)
            #expect(sample.frameBytes == encoded.readableBytes)
            #expect(sample.frameBytes < FrameHeader.size + frame.payload.count, "compressed: \(sample.frameBytes) B on the wire for a \(frame.payload.count) B payload")
        }

        #expect(Set(samples.map(\.frameBytes)).count == 1, "every push the same size: \(samples.map(\.frameBytes))")

        // No delay and no rate limit: the floor and the median are zero, no ratio to them.
        #expect(samples.allSatisfy { $0.floor.least == .zero && $0.floor.median == .zero && $0.medianRatio == nil })
        #expect(samples.allSatisfy { $0.pushToVisible > .zero && ($0.push.clientShare ?? .zero) <= $0.pushToVisible })

        let teardown = try await harness.stop()
        #expect(teardown.isClean, "\(teardown)")
    }

    @Test func everyPushCarriesTheSameParagraphAndItsOwnNumber() {
        let configuration = PushHarnessConfiguration()
        #expect(configuration.messageText.utf8.count >= 300)
        #expect(configuration.messageText == PushHarnessConfiguration.fixtureParagraph(seed: 1), "seeded: the same text every run")
        #expect(configuration.text(ofPush: 7) == configuration.messageText + " #000007")
        #expect(configuration.text(ofPush: 123_456).utf8.count == configuration.text(ofPush: 1).utf8.count)
    }

    @Test func aStoppedHarnessRefusesPushesAndReportsItsTeardownAgain() async throws {
        let harness = try await PushToVisibleHarness.start()
        let first = try await harness.stop()
        let second = try await harness.stop()
        #expect(first == second)
        #expect(first.isClean, "\(first)")
        let error = await #expect(throws: PushBenchError.self) { try await harness.measure() }
        #expect(error?.code == .stopped)
    }

    @Test func aUserNotInTheWorldIsAClearError() async throws {
        let error = await #expect(throws: PushBenchError.self) {
            try await PushToVisibleHarness.start(PushHarnessConfiguration(userID: 999))
        }
        #expect(error?.code == .noChat)
        #expect(error?.message.contains("user 999") == true)
    }
}
