public import LowbandDeterminism
public import LowbandWire

/// The headless chat screen: the visible message list of one open chat, a scroll position,
/// and the metrics a user would feel (scroll stalls, dropped frames, push-to-visible times).
///
/// The list changes only through the ``ScreenUpdateQueue``. Pages come from a
/// ``HistoryLoading`` (cache first); older pages are prefetched while the reader scrolls up.
/// New messages arrive at the bottom: live, and after every login the screen catches up with
/// what was written while it was offline, page by page of newer messages, by itself.
/// Confined to its scheduler.
public final class ChatScreenModel {
    /// The open chat.
    public let chatID: Int64
    /// Page size, viewport, prefetch distance and animation lengths.
    public let configuration: ScreenConfiguration
    /// The serial queue every change to `rows` goes through.
    public let queue: ScreenUpdateQueue
    /// Oldest first.
    public private(set) var rows: [ScreenRow] = []
    /// Index of the top row in the viewport. Inserting at the top moves it with the content,
    /// so what the reader sees never jumps (TamTam's upside-down table).
    public private(set) var scrollPosition = 0
    /// True when the list holds the chat's first message: scrolling up loads nothing more.
    public private(set) var reachesStart = false
    /// True while a page of older messages is being fetched.
    public private(set) var isLoading = false
    /// Times the reader reached the top of the list before the chat's start and had to wait for
    /// a page (a visible stall).
    public private(set) var scrollStalls = 0
    /// Pages of older messages asked for.
    public private(set) var pagesRequested = 0
    /// Pages of newer messages asked for while catching up after logins.
    public private(set) var newerPagesRequested = 0
    /// True while newer messages are being fetched after a login.
    public private(set) var isCatchingUp = false
    /// Every message that entered the list, in order, with when it arrived and when it showed.
    public private(set) var visibilityEvents: [VisibilityEvent] = []
    /// Called for each visibility event as it happens. For a pushed message shown on an idle
    /// list that is inside the engine's handling of the push, before the message is stored
    /// (docs/CLIENT.md): work that needs the stored message, or that stops the engine, belongs
    /// on a later turn (`scheduler.execute`).
    public var onVisible: ((VisibilityEvent) -> Void)?

    private let history: any HistoryLoading
    private let scheduler: any Scheduler
    private let userID: Int64
    private var stalled = false
    private var lastLoadFailed = false
    private var outgoingByTask: [Int64: UInt64] = [:]
    /// The oldest message delivered by a page, possibly still waiting on the queue: where the
    /// next page starts, so a page is never asked for twice.
    private var pagedOldestID: Int64?
    /// The newest message handed to the list (a page, a live message), possibly still waiting
    /// on the queue: where catching up starts.
    private var newestHandedID: Int64?
    /// A login came while there was nothing to catch up from yet, or while catching up.
    private var catchUpAgain = false

    /// Makes the screen of `chatID` for the user `userID` (the sender of its local echoes);
    /// nothing loads before ``open()``. Use it on `scheduler` only; `workClock` measures update
    /// work for the dropped-frame metric.
    public init(
        chatID: Int64,
        userID: Int64,
        history: any HistoryLoading,
        scheduler: any Scheduler,
        workClock: any WorkClock,
        configuration: ScreenConfiguration = ScreenConfiguration()
    ) {
        self.chatID = chatID
        self.userID = userID
        self.history = history
        self.scheduler = scheduler
        self.configuration = configuration
        self.queue = ScreenUpdateQueue(scheduler: scheduler, clock: workClock, frameBudget: configuration.frameBudget)
    }

    /// Rows in the viewport.
    public var visibleRows: ArraySlice<ScreenRow> {
        rows[scrollPosition ..< min(rows.count, scrollPosition + configuration.viewportRows)]
    }

    /// Loads the newest page (cache first, then the server for what the cache lacks).
    public func open() {
        loadOlder()
    }

    /// Requests the next older page unless one is on its way or the start is reached.
    public func loadOlder() {
        guard !isLoading, !reachesStart else { return }
        isLoading = true
        lastLoadFailed = false
        pagesRequested += 1
        let anchor = pagedOldestID ?? oldestMessageID
        history.loadPage(chatID: chatID, olderThan: anchor, count: configuration.pageSize) { [weak self] page in
            self?.received(page)
        }
    }

    /// The reader scrolled up by `rows` (towards older messages).
    public func scrollUp(by rowCount: Int) {
        scrollPosition = max(0, scrollPosition - max(0, rowCount))
        if scrollPosition <= configuration.prefetchDistance { loadOlder() }
        if scrollPosition == 0, !reachesStart, !stalled {
            stalled = true
            scrollStalls += 1
        }
    }

    /// A session is up again: retry a page that failed for lack of one, and catch up with
    /// what was written while the screen was offline.
    public func connectionDidLogIn() {
        if lastLoadFailed { loadOlder() }
        catchUp()
    }

    /// Fetches the messages newer than the newest one handed to the list — the cache's first
    /// (the login's delta sync, live messages), then the server's — and adds them at the
    /// bottom, page after page, until none newer is known. Runs after every login; one fetch
    /// at a time (a call during one runs again when it ends).
    public func catchUp() {
        // An empty chat read to its start catches up from its beginning.
        guard !isCatchingUp, let anchor = newestHandedID ?? (reachesStart ? 0 : nil) else {
            catchUpAgain = true
            return
        }
        catchUpAgain = false
        isCatchingUp = true
        newerPagesRequested += 1
        history.loadPage(chatID: chatID, newerThan: anchor, count: configuration.pageSize) { [weak self] page in
            self?.receivedNewer(page)
        }
    }

    /// A message arrived live (push, or the reply to our own send) at scheduler time `arrivedAt`.
    /// It is placed at once when the list is idle (no update running, animating or waiting),
    /// else after the updates before it.
    public func messageArrived(_ message: Message, at arrivedAt: Duration) {
        guard message.chatID == chatID else { return }
        newestHandedID = max(newestHandedID ?? message.id, message.id)
        queue.runOrEnqueue("message") { [weak self] in
            guard let self else { return .zero }
            return self.place(message, arrivedAt: arrivedAt)
        }
    }

    /// The outbox stored, failed or retried a send of this chat: keep the local echo in step.
    public func outboxDidEmit(_ event: OutboxEvent) {
        switch event {
        case .stored(let task) where task.kind == .send && task.chatID == chatID:
            guard let clientID = task.clientID else { return }
            outgoingByTask[task.id] = clientID
            let echo = Message(id: 0, chatID: chatID, senderID: userID, clientID: clientID, text: task.text ?? "", sentAt: 0)
            queue.enqueue("echo") { [weak self] in
                guard let self else { return .zero }
                self.rows.append(ScreenRow(id: .outgoing(clientID), message: echo, status: .sending))
                self.announce(.outgoing(clientID), arrivedAt: nil)
                return self.configuration.appendAnimation
            }
        case .sent(let taskID, let message) where message.chatID == chatID:
            outgoingByTask[taskID] = nil
            messageArrived(message, at: scheduler.now)
        case .failed(let taskID, _):
            guard let clientID = outgoingByTask[taskID] else { return }
            queue.enqueue("failed") { [weak self] in
                guard let self, let index = self.rows.firstIndex(where: { $0.id == .outgoing(clientID) }) else { return .zero }
                self.rows[index].status = .failed
                return .zero
            }
        default:
            break
        }
    }

    // MARK: - Updates (run on the queue)

    private var oldestMessageID: Int64? {
        rows.first { if case .message = $0.id { true } else { false } }?.message.id
    }

    private func received(_ page: HistoryPage) {
        let arrivedAt = scheduler.now
        if page.isFinal {
            isLoading = false
            lastLoadFailed = page.error != nil
        }
        if page.reachesStart { reachesStart = true }
        if let oldest = page.messages.first?.id, let newest = page.messages.last?.id {
            pagedOldestID = min(pagedOldestID ?? oldest, oldest)
            newestHandedID = max(newestHandedID ?? newest, newest)
            queue.enqueue("page") { [weak self] in
                guard let self else { return .zero }
                return self.insertAtTop(page.messages, arrivedAt: arrivedAt)
            }
        }
        if page.isFinal, catchUpAgain { catchUp() }
    }

    private func receivedNewer(_ page: HistoryPage) {
        let arrivedAt = scheduler.now
        if let newest = page.messages.map(\.id).max() {
            newestHandedID = max(newestHandedID ?? newest, newest)
            queue.enqueue("newer") { [weak self] in
                guard let self else { return .zero }
                return page.messages.reduce(Duration.zero) { longest, message in max(longest, self.place(message, arrivedAt: arrivedAt)) }
            }
        }
        guard page.isFinal else { return }
        isCatchingUp = false
        // A failure (the link went again) waits for the next login, unless one came meanwhile.
        if catchUpAgain || page.error == nil && !page.reachesEnd && !page.messages.isEmpty { catchUp() }
    }

    private func insertAtTop(_ messages: [Message], arrivedAt: Duration) -> Duration {
        let present = Set(rows.compactMap { if case .message(let id) = $0.id { id } else { nil } })
        let oldest = oldestMessageID
        let fresh = messages.filter { message in !present.contains(message.id) && (oldest.map { message.id < $0 } ?? true) }
        guard !fresh.isEmpty else { return .zero }
        let wasEmpty = rows.isEmpty
        rows.insert(contentsOf: fresh.map { ScreenRow(id: .message($0.id), message: $0, status: .delivered) }, at: 0)
        if wasEmpty {
            scrollPosition = max(0, rows.count - configuration.viewportRows)
        } else {
            scrollPosition += fresh.count
        }
        stalled = false
        for message in fresh.reversed() { announce(.message(message.id), arrivedAt: arrivedAt) }
        return wasEmpty ? .zero : configuration.insertAnimation
    }

    private func place(_ message: Message, arrivedAt: Duration) -> Duration {
        let row = ScreenRow(id: .message(message.id), message: message, status: .delivered)
        if let index = rows.firstIndex(where: { $0.id == row.id }) {
            rows[index] = row
            return .zero
        }
        if let clientID = message.clientID, let index = rows.firstIndex(where: { $0.id == .outgoing(clientID) }) {
            // The local echo becomes the stored message, in the server's order: a message
            // stored before others already shown (its acknowledgement came late) moves up
            // among them, so every device shows the chat alike.
            rows.remove(at: index)
            let target = position(of: message)
            rows.insert(row, at: target)
            announce(row.id, arrivedAt: arrivedAt)
            return target == index ? .zero : configuration.insertAnimation
        }
        let insertAt = position(of: message)
        if insertAt == 0, !rows.isEmpty, !reachesStart {
            // Older than everything shown: it belongs to a page not loaded yet.
            return .zero
        }
        rows.insert(row, at: insertAt)
        announce(row.id, arrivedAt: arrivedAt)
        return configuration.appendAnimation
    }

    /// Where a delivered message goes: below every delivered message with a smaller id, above
    /// the newer ones and the local echoes still sending.
    private func position(of message: Message) -> Int {
        rows.firstIndex { existing in
            if case .outgoing = existing.id { return true }
            return existing.message.id > message.id
        } ?? rows.endIndex
    }

    private func announce(_ row: ScreenRow.ID, arrivedAt: Duration?) {
        let event = VisibilityEvent(row: row, arrivedAt: arrivedAt, visibleAt: scheduler.now)
        visibilityEvents.append(event)
        onVisible?(event)
    }
}
