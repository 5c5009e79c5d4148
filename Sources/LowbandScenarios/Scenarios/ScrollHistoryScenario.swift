import LowbandClient
import LowbandFixtures
import LowbandRunReport
import LowbandWire

/// A reader scrolls up through a long chat (600 messages): how long the reader waits at the
/// top for the next page (each wait is one `scroll_stall` sample), how many pages came from the
/// cache and how many needed the server, and the bytes of the history replies.
///
/// Each client first reads the newest 120 messages (3 pages; they go into the cache), closes
/// the chat, and 2 s later opens it again and scrolls to the very first message: the pages it
/// read before now come from the cache, the older ones from the server. The reader scrolls
/// 3 rows every 50 ms (60 rows/s, a quick flick-through) and prefetches a page when 30 rows
/// from the top.
final class ScrollHistoryScenario: Scenario {
    static let messagesPerChat = 600
    static let firstReadRows = 120
    static let rowsPerTick = 3
    static let tick: Duration = .milliseconds(50)

    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 3), chatsPerUser: 1, messagesPerChat: messagesPerChat, extraContactsPerUser: 1)
    }

    private final class Reader {
        let index: Int
        let client: ScenarioClient
        let chatID: Int64
        var screen: ChatScreenModel?
        var pass = 0
        var rowsRead = 0
        var limit = Int.max
        var stallStart: Duration?
        var pagesRequested = 0
        var finished = false
        /// The last pass's screen, left open at the first message, so the checks judge its rows.
        var finishedScreen: ChatScreenModel?

        init(index: Int, client: ScenarioClient, chatID: Int64) {
            self.index = index
            self.client = client
            self.chatID = chatID
        }
    }

    private let context: RunContext
    private var readers: [Reader] = []
    private var stalls = TimedSamples()

    init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let userID = Int64(index + 1)
            guard let chat = context.chat(of: userID) else {
                throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat")
            }
            let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
            let reader = Reader(index: index, client: client, chatID: chat.id)
            readers.append(reader)
            client.onEvent = { [weak self, weak reader] event in
                guard let self, let reader, case .synced = event, reader.pass == 0 else { return }
                self.open(reader, readingAtMost: Self.firstReadRows)
            }
            client.engine.start()
        }
    }

    private func open(_ reader: Reader, readingAtMost limit: Int) {
        reader.pass += 1
        reader.rowsRead = 0
        reader.limit = limit
        reader.stallStart = nil
        let screen = reader.client.engine.openChat(reader.chatID)
        reader.screen = screen
        context.observe(screen, client: reader.client.index)
        context.line("open-chat", client: reader.index, chat: reader.chatID, detail: "pass \(reader.pass)")
        screen.open()
        // The reader starts once the first page is on the screen.
        context.every(Self.tick) { [weak self, weak reader] in
            guard let self, let reader, let screen = reader.screen else { return false }
            if screen.rows.isEmpty || screen.queue.isBusy { return true }
            self.context.every(Self.tick) { [weak self, weak reader] in
                guard let self, let reader else { return false }
                return self.step(reader)
            }
            return false
        }
    }

    /// One tick of the reader; false when this pass is over.
    private func step(_ reader: Reader) -> Bool {
        guard let screen = reader.screen, !context.trafficIsOver else { return false }
        if screen.scrollPosition > 0 {
            if let start = reader.stallStart {
                let stall = context.now - start
                stalls.append(stall, endingAt: context.now)
                context.line("scroll-stall", client: reader.index, chat: reader.chatID, value: stall)
                reader.stallStart = nil
            }
            let before = screen.scrollPosition
            screen.scrollUp(by: min(Self.rowsPerTick, reader.limit - reader.rowsRead))
            reader.rowsRead += before - screen.scrollPosition
        } else if !screen.reachesStart {
            if reader.stallStart == nil { reader.stallStart = context.now }
            screen.scrollUp(by: 0)
        }
        let done = reader.rowsRead >= reader.limit || (screen.scrollPosition == 0 && screen.reachesStart && !screen.queue.isBusy)
        guard done else { return true }
        reader.pagesRequested += screen.pagesRequested
        context.line("read", client: reader.index, chat: reader.chatID, detail: "pass \(reader.pass): \(reader.rowsRead) rows, \(screen.pagesRequested) pages")
        reader.screen = nil
        if reader.pass == 1 {
            context.scheduler.schedule(after: .seconds(2)) { [weak self, weak reader] in
                guard let self, let reader, !self.context.trafficIsOver else { return }
                self.open(reader, readingAtMost: .max)
            }
        } else {
            reader.finished = true
            reader.finishedScreen = screen
            context.note(.note, "reader reached the first message", client: reader.index)
        }
        return false
    }

    var liveFigure: String {
        let pages = readers.reduce(0) { $0 + $1.pagesRequested + ($1.screen?.pagesRequested ?? 0) }
        let stall = LiveFigure.median(stalls.values).map { ", stall p50 \(Int($0.rounded())) ms" } ?? ""
        return "pages \(pages), stalls \(stalls.values.count)\(stall)"
    }

    func finish() -> ScenarioResult {
        var fromCache = 0
        var fromServer = 0
        var bytes = 0
        var pages = 0
        for reader in readers {
            let statistics = reader.client.engine.history.statistics
            fromCache += statistics.pagesFromCache
            fromServer += statistics.pagesFromServer + statistics.pagesFromBoth
            bytes += reader.client.connector.counter.received(.history).bytes
            pages += reader.pagesRequested + (reader.screen?.pagesRequested ?? 0)
        }
        return ScenarioResult(
            metrics: [
                stalls.metric(named: "scroll_stall"),
                RunMetric(name: "pages", unit: "count", values: [Double(pages)]),
                RunMetric(name: "pages_from_cache", unit: "count", values: [Double(fromCache)]),
                RunMetric(name: "pages_from_server", unit: "count", values: [Double(fromServer)]),
                RunMetric(name: "history_bytes", unit: "bytes", values: [Double(bytes)]),
                RunMetric(name: "readers_finished", unit: "count", values: [Double(readers.count { $0.finished })]),
            ],
            floorMilliseconds: nil)
    }
}
