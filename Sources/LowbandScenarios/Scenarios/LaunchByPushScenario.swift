import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandWire

/// A cold start of the app triggered by a push, two ways, alternating:
///
/// - **notification then fetch**: the push only says "new message"; the app starts, connects,
///   logs in (the delta sync brings the chat's new last message) and shows the chat;
/// - **content push**: the push carries the message; the app starts and shows it from the push
///   at once, connecting in the background.
///
/// Each client has a push channel (a bare logged-in connection over the same shaped link, as a
/// phone's push service shares its radio) and an app engine whose cache was warmed once and
/// that is killed between launches. Time is measured from the server sending the message to
/// it being visible after the cold start. In virtual time the start-up work itself costs no
/// time; on sockets it is the machine's.
final class LaunchByPushScenario: Scenario {
    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 4), chatsPerUser: 2, messagesPerChat: 40)
    }

    fileprivate enum Variant: String {
        case notify = "notification-then-fetch"
        case content = "content-push"
    }

    fileprivate struct Launch {
        var messageID: Int64
        var postedAt: Duration
        var variant: Variant
        var message: Message?
        var launched = false
    }

    fileprivate final class Device: ConnectionObserver {
        let index: Int
        let userID: Int64
        let chatID: Int64
        let poster: Int64
        var texts: MessengerFixtures
        var random: SeededGenerator
        var channel: Connection?
        var app: ScenarioClient?
        var screen: ChatScreenModel?
        var pending: Launch?
        var launches = 0
        var warmed = false
        weak var scenario: LaunchByPushScenario?

        init(index: Int, userID: Int64, chatID: Int64, poster: Int64, texts: MessengerFixtures, random: SeededGenerator) {
            self.index = index
            self.userID = userID
            self.chatID = chatID
            self.poster = poster
            self.texts = texts
            self.random = random
        }

        func connection(_ connection: Connection, didEmit event: ConnectionEvent) {
            guard case .push(let frame) = event, frame.command == .pushNewMessage,
                  let message = try? frame.decode(NewMessagePush.self).message
            else { return }
            scenario?.pushArrived(message, on: self)
        }
    }

    private let context: RunContext
    private var devices: [Device] = []
    private var notifySamples = TimedSamples()
    private var contentSamples = TimedSamples()
    private var missed = 0
    /// Pushes that reached a device's channel before their post's completion (``PostSightings``).
    private var sightings = PostSightings<Sighted, Message>()

    private struct Sighted: Hashable {
        var device: Int
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
            let device = Device(index: index, userID: userID, chatID: chat.id, poster: poster, texts: context.texts(for: index), random: context.random(3, UInt64(index)))
            device.scenario = self
            devices.append(device)
            let channel = context.makeConnection(index: index, userID: userID, observer: device)
            device.channel = channel
            channel.start()
            try warm(device)
        }
    }

    /// The first launch fills the cache: log in, show the chat, then the app is killed.
    private func warm(_ device: Device) throws(ScenarioError) {
        let app = try launchApp(device)
        app.onEvent = { [weak self, weak device] event in
            guard let self, let device, case .synced = event, device.screen == nil else { return }
            let screen = app.engine.openChat(device.chatID)
            device.screen = screen
            screen.open()
            self.context.every(.milliseconds(100)) { [weak self, weak device, weak screen] in
                guard let self, let device, let screen else { return false }
                if screen.isLoading || screen.queue.isBusy || screen.rows.isEmpty { return true }
                self.kill(device)
                device.warmed = true
                self.context.line("warmed", client: device.index, chat: device.chatID)
                self.scheduleLaunch(device)
                return false
            }
        }
        app.engine.start()
    }

    private func launchApp(_ device: Device) throws(ScenarioError) -> ScenarioClient {
        let app = try context.makeClient(index: device.index, userID: device.userID, database: "client-\(device.index).sqlite")
        device.app = app
        return app
    }

    /// The app is killed: its engine stops and is released; the cache file stays.
    private func kill(_ device: Device) {
        guard let app = device.app else { return }
        device.app = nil
        device.screen = nil
        app.onEvent = nil
        context.scheduler.execute { [context] in
            app.engine.stop()
            context.forget(app)
        }
    }

    private func scheduleLaunch(_ device: Device) {
        let gap = device.random.duration(in: .seconds(3) ... .seconds(12))
        context.scheduler.schedule(after: gap) { [weak self, weak device] in
            guard let self, let device, !self.context.trafficIsOver else { return }
            guard device.channel?.isLoggedIn == true else {
                // The push channel is down (an outage): try again later.
                self.scheduleLaunch(device)
                return
            }
            self.sendPush(device)
        }
    }

    private func sendPush(_ device: Device) {
        let variant: Variant = device.launches % 2 == 0 ? .notify : .content
        device.launches += 1
        let text = device.texts.text()
        sightings.willPost()
        context.server.post(text, in: device.chatID, from: device.poster) { [weak self, weak device] result, postedAt in
            guard let self, let device, case .success(let message) = result else {
                _ = self?.sightings.didPost(nil)
                if let self, let device { self.scheduleLaunch(device) }
                return
            }
            let early = self.sightings.didPost(Sighted(device: device.index, message: message.id))
            self.posted(message, at: postedAt, variant: variant, on: device)
            if let early { self.pushArrived(early, on: device) }
        }
    }

    private func posted(_ message: Message, at postedAt: Duration, variant: Variant, on device: Device) {
        device.pending = Launch(messageID: message.id, postedAt: postedAt, variant: variant)
        context.line("push-sent", client: device.index, chat: device.chatID, message: message.id, detail: variant.rawValue)
        let launch = device.launches
        context.scheduler.schedule(after: .seconds(120)) { [weak self, weak device] in
            guard let self, let device, device.launches == launch, device.pending != nil else { return }
            self.missed += 1
            self.context.line("launch-timeout", client: device.index, chat: device.chatID, message: message.id)
            device.pending = nil
            guard !self.context.trafficIsOver else { return }
            self.kill(device)
            self.scheduleLaunch(device)
        }
    }

    fileprivate func pushArrived(_ message: Message, on device: Device) {
        guard var launch = device.pending, launch.messageID == message.id else {
            // Before its post's completion named it, or not a launch's push at all.
            return sightings.sawUnposted(Sighted(device: device.index, message: message.id), message)
        }
        guard !launch.launched else { return }
        launch.launched = true
        launch.message = message
        device.pending = launch
        context.line("push-arrived", client: device.index, chat: device.chatID, message: message.id, value: context.now - launch.postedAt, detail: launch.variant.rawValue)
        guard let app = try? launchApp(device) else { return }
        switch launch.variant {
        case .notify:
            app.onEvent = { [weak self, weak device] event in
                guard let self, let device, case .synced = event, device.screen == nil else { return }
                self.showChat(device, app: app, pushed: nil)
            }
            app.engine.start()
        case .content:
            showChat(device, app: app, pushed: message)
            app.engine.start()
        }
    }

    private func showChat(_ device: Device, app: ScenarioClient, pushed: Message?) {
        let screen = app.engine.openChat(device.chatID)
        device.screen = screen
        screen.onVisible = { [weak self, weak device] event in
            guard let self, let device, let launch = device.pending, event.row == .message(launch.messageID) else { return }
            // The run's time, not the phone's: its clock may be skewed (`--faults clock-skew`).
            self.visible(device, launch: launch, at: self.context.now)
        }
        context.observe(screen, client: app.index)
        screen.open()
        if let pushed { screen.messageArrived(pushed, at: context.now) }
    }

    private func visible(_ device: Device, launch: Launch, at time: Duration) {
        let delay = time - launch.postedAt
        switch launch.variant {
        case .notify: notifySamples.append(delay, endingAt: time)
        case .content: contentSamples.append(delay, endingAt: time)
        }
        context.line("visible", client: device.index, chat: device.chatID, message: launch.messageID, value: delay, detail: launch.variant.rawValue)
        device.pending = nil
        // Draining, the app stays open for the checks.
        guard !context.trafficIsOver else { return }
        kill(device)
        scheduleLaunch(device)
    }

    /// Every device whose app is not running opens it once more (a cold start on its cache,
    /// syncing the chats), and it stays open: the checks then judge what each device holds.
    func drainBegins() {
        for device in devices where device.app == nil && device.warmed {
            guard let app = try? launchApp(device) else { continue }
            context.line("opened-for-checks", client: device.index, chat: device.chatID)
            app.engine.start()
        }
    }

    var liveFigure: String {
        let notify = LiveFigure.median(notifySamples.values).map { "\(Int($0.rounded())) ms" } ?? "-"
        let content = LiveFigure.median(contentSamples.values).map { "\(Int($0.rounded())) ms" } ?? "-"
        return "launches \(notifySamples.values.count + contentSamples.values.count), notify p50 \(notify), content p50 \(content)"
    }

    func finish() -> ScenarioResult {
        var metrics = [
            notifySamples.metric(named: "launch_notify_then_fetch"),
            contentSamples.metric(named: "launch_content_push"),
        ]
        if let notify = LiveFigure.median(notifySamples.values), let content = LiveFigure.median(contentSamples.values) {
            metrics.append(RunMetric(name: "launch_gap", unit: "ms", values: [notify - content]))
        } else {
            metrics.append(RunMetric(name: "launch_gap", unit: "ms", values: []))
        }
        metrics.append(RunMetric(name: "launches_missed", unit: "count", values: [Double(missed)]))
        return ScenarioResult(metrics: metrics, floorMilliseconds: nil)
    }
}
