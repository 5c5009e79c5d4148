import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandShaper
import LowbandWire

/// Messages pushed to an open chat at a seeded rate (one every 1–5 s per client): the time from
/// the server sending each push to the message entering the visible list, and the bytes each
/// delivered message cost on the downlink (`bytes_per_message`: its push frame's header and
/// payload as they travelled, compressed as the session agreed).
///
/// Each client opens its first chat; another member of that chat "writes" through the server
/// (no client of its own), so every push crosses the shaped downlink once. The workload of a
/// client starts when its screen has shown the first page.
final class PushToVisibleScenario: Scenario {
    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 4), chatsPerUser: 2, messagesPerChat: 30)
    }

    private struct Reader {
        var client: ScenarioClient
        var chatID: Int64
        var poster: Int64
        var screen: ChatScreenModel?
        var texts: MessengerFixtures
        var random: SeededGenerator
    }

    private let context: RunContext
    private var readers: [Reader] = []
    /// When each pushed message was posted and its push frame's size, by message id (looked up,
    /// never iterated).
    private var posted: [Int64: (at: Duration, frameBytes: Int?)] = [:]
    private var seen: Set<Pair> = []
    /// Rows visible before their post's completion (``PostSightings``), when they became visible.
    private var sightings = PostSightings<Pair, Duration>()
    private var samples = TimedSamples()
    private var pushes = 0
    /// Every push frame's size, in the order sent: the floor is the smallest's, the median the
    /// median-sized one's.
    private var pushBytes: [Int] = []
    /// Samples faster than the physical floor of their own push (the network model was beaten:
    /// a bug in the measurement or the shaper).
    private var belowFloor = 0
    /// The wire bytes of the push frames of every sample (a message seen by a reader).
    private var deliveredBytes = 0

    private struct Pair: Hashable {
        var reader: Int
        var message: Int64
    }

    init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let userID = Int64(index + 1)
            guard let chat = context.chat(of: userID), let poster = chat.memberIDs.first(where: { $0 != userID }) else {
                throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat with another member")
            }
            let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
            readers.append(Reader(client: client, chatID: chat.id, poster: poster, screen: nil, texts: context.texts(for: index), random: context.random(2, UInt64(index))))
            client.onEvent = { [weak self] event in
                if case .synced = event { self?.openScreen(index) }
            }
            client.engine.start()
        }
    }

    private func openScreen(_ index: Int) {
        guard readers[index].screen == nil else { return }
        let screen = readers[index].client.engine.openChat(readers[index].chatID)
        readers[index].screen = screen
        screen.onVisible = { [weak self] event in self?.visible(event, reader: index) }
        context.observe(screen, client: readers[index].client.index)
        screen.open()
        context.every(.milliseconds(100)) { [weak self, weak screen] in
            guard let self, let screen else { return false }
            guard screen.isLoading || screen.queue.isBusy || screen.rows.isEmpty else {
                self.context.line("screen-ready", client: index, chat: self.readers[index].chatID)
                self.scheduleNextPush(index)
                return false
            }
            return true
        }
    }

    private func scheduleNextPush(_ index: Int) {
        let gap = readers[index].random.duration(in: .seconds(1) ... .seconds(5))
        context.scheduler.schedule(after: gap) { [weak self] in self?.push(index) }
    }

    private func push(_ index: Int) {
        guard !context.trafficIsOver else { return }
        let reader = readers[index]
        let text = readers[index].texts.text()
        sightings.willPost()
        context.server.post(text, in: reader.chatID, from: reader.poster) { [weak self] result, postedAt in
            guard let self else { return }
            switch result {
            case .success(let message):
                self.pushes += 1
                let bytes = RunContext.pushFrameBytes(message, dictionary: self.context.agreedDictionary)
                self.posted[message.id] = (postedAt, bytes)
                if let bytes { self.pushBytes.append(bytes) }
                self.context.line("push-sent", client: index, chat: reader.chatID, message: message.id)
                let pair = Pair(reader: index, message: message.id)
                if let visibleAt = self.sightings.didPost(pair) { self.record(pair, visibleAt: visibleAt) }
            case .failure(let error):
                _ = self.sightings.didPost(nil)
                self.context.line("push-failed", client: index, chat: reader.chatID, detail: "\(error)")
            }
        }
        scheduleNextPush(index)
    }

    private func visible(_ event: VisibilityEvent, reader: Int) {
        guard case .message(let id) = event.row else { return }
        let pair = Pair(reader: reader, message: id)
        // The run's time, not the phone's: its clock may be skewed (`--faults clock-skew`).
        guard posted[id] != nil else { return sightings.sawUnposted(pair, context.now) }
        record(pair, visibleAt: context.now)
    }

    /// One sample: the pushed message `pair.message` became visible to `pair.reader` at `visibleAt`.
    private func record(_ pair: Pair, visibleAt: Duration) {
        guard let push = posted[pair.message], seen.insert(pair).inserted else { return }
        let delay = visibleAt - push.at
        samples.append(delay, endingAt: visibleAt)
        deliveredBytes += push.frameBytes ?? 0
        if let bytes = push.frameBytes, delay < PhysicalFloor.least(profile: context.profile, frameBytes: bytes) { belowFloor += 1 }
        context.line("visible", client: pair.reader, chat: readers[pair.reader].chatID, message: pair.message, value: delay)
    }

    var liveFigure: String {
        LiveFigure.describe(samples.values.count, "visible", samples.values)
    }

    func finish() -> ScenarioResult {
        let sizes = pushBytes.sorted()
        let floor = sizes.first.map { PhysicalFloor(profile: context.profile, frameBytes: $0) }
        let median = sizes.isEmpty ? nil : PhysicalFloor(profile: context.profile, frameBytes: sizes[(sizes.count - 1) / 2]).median
        var result = ScenarioResult(
            metrics: [
                samples.metric(named: "push_to_visible"),
                RunMetric(name: "pushes", unit: "count", values: [Double(pushes)]),
                RunMetric(name: "bytes_per_message", unit: "bytes", values: samples.values.isEmpty ? [] : [Double(deliveredBytes) / Double(samples.values.count)]),
            ],
            floorMilliseconds: floor.map(\.least.milliseconds))
        result.medianMilliseconds = median?.milliseconds
        result.samplesBelowFloor = floor == nil ? nil : belowFloor
        return result
    }
}
