import LowbandClient
import LowbandDeterminism
import LowbandTestSupport
import LowbandWire
import Testing

/// A request sender that answers from a script, on the scheduler.
final class ScriptedSender: RequestSender {
    var isLoggedIn = true
    let scheduler: VirtualScheduler
    var answer: (any WireMessage) -> Result<any WireMessage, ClientError>
    private(set) var requests: [any WireMessage] = []

    init(scheduler: VirtualScheduler, answer: @escaping (any WireMessage) -> Result<any WireMessage, ClientError>) {
        self.scheduler = scheduler
        self.answer = answer
    }

    func send<R: WireRequest>(_ request: R, timeout: Duration?, completion: @escaping (Result<R.Reply, ClientError>) -> Void) {
        requests.append(request)
        let result = answer(request).map { $0 as! R.Reply }
        scheduler.schedule(after: .milliseconds(10)) { completion(result) }
    }

    func sends(in chat: Int64) -> [String] {
        requests.compactMap { ($0 as? SendMessageRequest).flatMap { $0.chatID == chat ? $0.text : nil } }
    }

    static func reply(to request: any WireMessage) -> Result<any WireMessage, ClientError> {
        switch request {
        case let send as SendMessageRequest:
            return .success(SendMessageReply(message: Message(id: Int64(send.clientID % 1_000_000), chatID: send.chatID, senderID: 1, clientID: send.clientID, text: send.text, sentAt: 0, attachments: send.attachments)))
        case let status as UploadStatusRequest:
            return .success(UploadChunkReply(uploadID: status.uploadID, acknowledgedOffset: 0, complete: false))
        case let chunk as UploadChunkRequest:
            let end = chunk.offset + Int64(chunk.data.count)
            return .success(UploadChunkReply(uploadID: chunk.uploadID, acknowledgedOffset: end, complete: end == chunk.totalSize, url: end == chunk.totalSize ? "https://cdn/\(chunk.uploadID)" : nil))
        default:
            return .failure(ClientError(.server, "unexpected"))
        }
    }
}

final class OutboxEvents: OutboxObserver {
    var events: [OutboxEvent] = []
    func outbox(_ outbox: Outbox, didEmit event: OutboxEvent) { events.append(event) }
}

@Suite struct OutboxTests {
    let scheduler = VirtualScheduler()
    let directory: TemporaryDirectory
    let database: CacheDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try CacheDatabase(path: directory.file("cache.sqlite"))
    }

    private func outbox(_ sender: ScriptedSender, chunk: Int = 100) -> (Outbox, OutboxEvents) {
        let store = OutboxStore(writer: database.writer, clientIDs: ClientIDGenerator(generator: SeededGenerator(seed: 2)))
        let outbox = Outbox(store: store, sender: sender, scheduler: scheduler, configuration: OutboxConfiguration(uploadChunkSize: chunk), generator: SeededGenerator(seed: 3), log: ClientLog())
        let events = OutboxEvents()
        outbox.observer = events
        outbox.start()
        return (outbox, events)
    }

    @Test func aSendWaitsForItsUploadAndLaterSendsOfTheChatWaitTooButOtherChatsDoNot() throws {
        let sender = ScriptedSender(scheduler: scheduler, answer: ScriptedSender.reply)
        let (outbox, _) = outbox(sender, chunk: 100)
        try outbox.enqueueMessage(chatID: 1, text: "photo", attachment: OutgoingAttachment(kind: .photo, data: Array(repeating: 7, count: 450)))
        try outbox.enqueueMessage(chatID: 1, text: "after the photo")
        try outbox.enqueueMessage(chatID: 2, text: "elsewhere")
        scheduler.advance(by: .milliseconds(15))
        #expect(sender.sends(in: 2) == ["elsewhere"])
        #expect(sender.sends(in: 1).isEmpty, "chat 1 waits for the upload")
        scheduler.runUntilIdle()
        #expect(sender.sends(in: 1) == ["photo", "after the photo"])
        let photo = sender.requests.compactMap { $0 as? SendMessageRequest }.first { $0.text == "photo" }
        #expect(photo?.attachments.first?.url.hasPrefix("https://cdn/") == true)
        #expect(sender.requests.compactMap { ($0 as? UploadChunkRequest)?.offset } == [0, 100, 200, 300, 400])
        #expect(try outbox.store.pendingTasks().isEmpty)
    }

    @Test func aRefusedUploadFailsItsSendAndTheChatMovesOn() throws {
        let sender = ScriptedSender(scheduler: scheduler) { request in
            request is UploadStatusRequest ? .failure(ClientError(.server, "no", serverReply: ErrorReply(code: .payloadTooLarge, text: "too big"))) : ScriptedSender.reply(to: request)
        }
        let (outbox, events) = outbox(sender)
        let photo = try outbox.enqueueMessage(chatID: 1, text: "photo", attachment: OutgoingAttachment(kind: .photo, data: [1, 2, 3]))
        try outbox.enqueueMessage(chatID: 1, text: "next")
        scheduler.runUntilIdle()
        let failed = events.events.compactMap { if case .failed(let id, _) = $0 { id } else { nil } }
        let upload = try #require(photo.dependsOn)
        #expect(failed == [upload, photo.id], "the upload, then the send that needed it")
        #expect(try outbox.store.task(id: photo.id)?.state == .failed)
        #expect(sender.sends(in: 1) == ["next"])
    }

    @Test func transientFailuresAreRetriedWithTheSameClientID() throws {
        var failuresLeft = 3
        let sender = ScriptedSender(scheduler: scheduler) { request in
            if request is SendMessageRequest, failuresLeft > 0 {
                failuresLeft -= 1
                return .failure(ClientError(.timedOut, "slow"))
            }
            return ScriptedSender.reply(to: request)
        }
        let (outbox, events) = outbox(sender)
        let task = try outbox.enqueueMessage(chatID: 1, text: "persistent")
        scheduler.runUntilIdle()
        let clientIDs = sender.requests.compactMap { ($0 as? SendMessageRequest)?.clientID }
        #expect(clientIDs == Array(repeating: task.clientID!, count: 4))
        #expect(try outbox.store.task(id: task.id)?.attempts == 3)
        #expect(events.events.count { if case .willRetry = $0 { true } else { false } } == 3)
        #expect(try outbox.store.task(id: task.id)?.state == .done)
    }

    @Test func nothingGoesOutWithoutASessionAndEverythingGoesWhenOneStarts() throws {
        let sender = ScriptedSender(scheduler: scheduler, answer: ScriptedSender.reply)
        sender.isLoggedIn = false
        let (outbox, _) = outbox(sender)
        for index in 0 ..< 3 { try outbox.enqueueMessage(chatID: 1, text: "m\(index)") }
        scheduler.runUntilIdle()
        #expect(sender.requests.isEmpty)
        sender.isLoggedIn = true
        outbox.connectionDidLogIn()
        scheduler.runUntilIdle()
        #expect(sender.sends(in: 1) == ["m0", "m1", "m2"])
    }

    @Test func aFailedTaskCanBeRequeuedByTheUser() throws {
        var refuse = true
        let sender = ScriptedSender(scheduler: scheduler) { request in
            refuse ? .failure(ClientError(.server, "no", serverReply: ErrorReply(code: .forbidden, text: "no"))) : ScriptedSender.reply(to: request)
        }
        let (outbox, _) = outbox(sender)
        let task = try outbox.enqueueMessage(chatID: 1, text: "again")
        scheduler.runUntilIdle()
        #expect(try outbox.store.task(id: task.id)?.state == .failed)
        refuse = false
        try outbox.retry(taskID: task.id)
        scheduler.runUntilIdle()
        #expect(try outbox.store.task(id: task.id)?.state == .done)
        #expect(Set(sender.requests.compactMap { ($0 as? SendMessageRequest)?.clientID }) == [task.clientID!])
    }

    @Test func stoppingWithARequestInFlightLeavesTheTaskForTheNextStart() throws {
        let sender = ScriptedSender(scheduler: scheduler, answer: ScriptedSender.reply)
        let (outbox, events) = outbox(sender)
        sender.answer = { _ in .failure(ClientError(.stopped, "the connection was stopped")) }
        let task = try outbox.enqueueMessage(chatID: 1, text: "in flight")
        outbox.stop()
        scheduler.runUntilIdle()
        #expect(sender.requests.count == 1)
        #expect(try outbox.store.task(id: task.id)?.state == .pending)
        #expect(try outbox.store.task(id: task.id)?.attempts == 0)
        #expect(!events.events.contains { if case .failed = $0 { true } else { false } })
    }
}
