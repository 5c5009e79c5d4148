public import LowbandDeterminism
import LowbandWire

/// Cache-first history: answers from the chunks when they hold the page, asks the server for
/// what they lack, stores what the server sends (growing and merging chunks) and delivers both.
public final class HistoryService: HistoryLoading {
    private let store: MessageStore
    private let sender: any RequestSender
    private let scheduler: any Scheduler
    private let log: ClientLog
    /// What the service has done so far; read on its scheduler.
    public private(set) var statistics = Statistics()

    /// Counters of a ``HistoryService``, for tests and reports.
    public struct Statistics: Hashable, Sendable {
        /// Pages of older messages (scrolling up), by where they came from.
        public var pagesFromCache = 0
        /// Pages of older messages that the server alone answered.
        public var pagesFromServer = 0
        /// Pages of older messages shown partly from the cache, then completed by the server.
        public var pagesFromBoth = 0
        /// Pages of newer messages (catching up after a login): the cache alone sufficed, or
        /// the server was asked (with or without a cached part first).
        public var newerPagesFromCache = 0
        /// Pages of newer messages for which the server was asked.
        public var newerPagesFromServer = 0
        /// Server pages that closed a gap between two chunks.
        public var gapsClosed = 0
        /// Server requests that failed (offline, timed out, refused); the cached part was still shown.
        public var serverFailures = 0
    }

    /// A service over the cache `store` that asks the server through `sender`, delivers on
    /// `scheduler` and records failures in `log`. Use it on that scheduler only.
    public init(store: MessageStore, sender: any RequestSender, scheduler: any Scheduler, log: ClientLog) {
        self.store = store
        self.sender = sender
        self.scheduler = scheduler
        self.log = log
    }

    /// Delivers the page of `count` messages older than `anchor` (nil: the newest page): the cached
    /// part at once, then what the server sends, stored first; the last delivery has `isFinal`.
    ///
    /// Never throws: a cache or server failure arrives as the page's `error`.
    public func loadPage(chatID: Int64, olderThan anchor: Int64?, count: Int, deliver: @escaping (HistoryPage) -> Void) {
        let plan: HistoryPlan
        var cached: [Message] = []
        do {
            plan = try store.plan(chatID: chatID, olderThan: anchor, count: count)
            if let range = plan.cacheRange {
                cached = try store.messages(chatID: chatID, in: range, newest: count)
            }
        } catch {
            let failure = ClientError(.database, "cannot read the history of chat \(chatID): \(error)")
            log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "databaseFailed", message: failure.message))
            scheduler.execute { deliver(HistoryPage(chatID: chatID, messages: [], source: .cache, reachesStart: false, isFinal: true, error: failure)) }
            return
        }
        switch plan.source {
        case .cache: statistics.pagesFromCache += 1
        case .server: statistics.pagesFromServer += 1
        case .cacheAndServer: statistics.pagesFromBoth += 1
        }
        if !cached.isEmpty || plan.serverRequest == nil {
            let page = HistoryPage(chatID: chatID, messages: cached, source: .cache, reachesStart: plan.reachesStart, isFinal: plan.serverRequest == nil)
            scheduler.execute { deliver(page) }
        }
        guard let request = plan.serverRequest else { return }
        sender.send(request, timeout: nil) { [weak self] result in
            guard let self else { return }
            deliver(self.serverPart(request, result))
        }
    }

    /// Newer messages: the cache's part when the chunk holding `anchor` continues above it,
    /// then, unless that reaches the chat's newest known message, the server's page newer than
    /// the last one shown (stored, so it joins the chunk).
    public func loadPage(chatID: Int64, newerThan anchor: Int64, count: Int, deliver: @escaping (HistoryPage) -> Void) {
        let cached: (messages: [Message], reachesNewest: Bool)
        do {
            cached = try store.newer(chatID: chatID, than: anchor, count: count)
        } catch {
            let failure = ClientError(.database, "cannot read the history of chat \(chatID): \(error)")
            log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "databaseFailed", message: failure.message))
            scheduler.execute { deliver(HistoryPage(chatID: chatID, messages: [], source: .cache, reachesStart: false, isFinal: true, error: failure)) }
            return
        }
        let complete = cached.reachesNewest || cached.messages.count >= count
        if !cached.messages.isEmpty || complete {
            let page = HistoryPage(chatID: chatID, messages: cached.messages, source: .cache, reachesStart: false, reachesEnd: cached.reachesNewest, isFinal: complete)
            scheduler.execute { deliver(page) }
        }
        guard !complete else {
            statistics.newerPagesFromCache += 1
            return
        }
        statistics.newerPagesFromServer += 1
        let request = HistoryRequest(chatID: chatID, anchor: cached.messages.last?.id ?? anchor, direction: .newer, count: count - cached.messages.count)
        sender.send(request, timeout: nil) { [weak self] result in
            guard let self else { return }
            var page = self.serverPart(request, result)
            page.reachesEnd = page.error == nil && page.reachesStart
            page.reachesStart = false
            deliver(page)
        }
    }

    private func serverPart(_ request: HistoryRequest, _ result: Result<HistoryReply, ClientError>) -> HistoryPage {
        switch result {
        case .success(let reply):
            do {
                let outcome = try store.apply(page: reply, for: request)
                if outcome.absorbedChunks >= 2 { statistics.gapsClosed += 1 }
                if outcome.reconciliation.replaced > 0 || !outcome.reconciliation.deletions.isEmpty {
                    log.record(ClientLogEntry(
                        time: scheduler.now, level: .info, event: "historyConflict",
                        message: "chat \(request.chatID): the server replaced \(outcome.reconciliation.replaced) and deleted \(outcome.reconciliation.deletions.count) cached messages"))
                }
            } catch {
                log.record(ClientLogEntry(time: scheduler.now, level: .error, event: "databaseFailed", message: "cannot store a page of chat \(request.chatID): \(error)"))
            }
            let messages = reply.messages.filter { $0.chatID == request.chatID }.sorted { $0.id < $1.id }
            return HistoryPage(chatID: request.chatID, messages: messages, source: .server, reachesStart: reply.reachedEnd, isFinal: true)
        case .failure(let error):
            statistics.serverFailures += 1
            return HistoryPage(chatID: request.chatID, messages: [], source: .server, reachesStart: false, isFinal: true, error: error)
        }
    }
}
