import LowbandClient
import LowbandDeterminism
import LowbandFixtures

/// A client with its direct chat open, and the chat's other member who writes to it through
/// the server: the subway's rider, the pocket's phone.
final class DirectChatter {
    let index: Int
    let client: ScenarioClient
    let chatID: Int64
    /// The chat's other member.
    let partner: Int64
    var texts: MessengerFixtures
    var random: SeededGenerator
    var screen: ChatScreenModel?

    private init(index: Int, client: ScenarioClient, chatID: Int64, partner: Int64, texts: MessengerFixtures, random: SeededGenerator) {
        self.index = index
        self.client = client
        self.chatID = chatID
        self.partner = partner
        self.texts = texts
        self.random = random
    }

    /// Client `index` as user `index + 1`, with its direct chat (or another with a second
    /// member), its texts and the run's random stream `(stream, index)`.
    static func make(index: Int, context: RunContext, stream: UInt64) throws(ScenarioError) -> DirectChatter {
        let userID = Int64(index + 1)
        guard let chat = context.chat(of: userID, preferDirect: true), let partner = chat.memberIDs.first(where: { $0 != userID }) else {
            throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat with another member")
        }
        let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
        return DirectChatter(
            index: index, client: client, chatID: chat.id, partner: partner, texts: context.texts(for: index),
            random: context.random(stream, UInt64(index)))
    }

    /// Opens the chat's screen, observed by the run; `visible` hears each message row that
    /// becomes visible on it.
    func openChat(context: RunContext, visible: @escaping (_ message: Int64) -> Void) {
        let screen = client.engine.openChat(chatID)
        self.screen = screen
        screen.onVisible = { event in
            guard case .message(let id) = event.row else { return }
            visible(id)
        }
        context.observe(screen, client: client.index)
        screen.open()
    }
}

/// What chatters' partners write through the server, each timed from its post to its row
/// visible on the chatter's screen, whichever of the two the run hears of first
/// (``PostSightings``).
final class PartnerPosts {
    private let context: RunContext
    private var postedAt: [Int64: Duration] = [:]
    private var sightings = PostSightings<Int64, (chatter: Int, visibleAt: Duration)>()
    /// A partner's message is visible on `chatter`'s screen, `posted` and `visibleAt` on the
    /// run's clock.
    var delivered: (_ message: Int64, _ chatter: Int, _ posted: Duration, _ visibleAt: Duration) -> Void = { _, _, _, _ in }

    init(context: RunContext) {
        self.context = context
    }

    /// Posts not yet visible.
    var pending: Int { postedAt.count }

    /// `chatter`'s partner writes `text` in their chat, through the server.
    func post(_ text: String, to chatter: DirectChatter) {
        let (index, chatID) = (chatter.index, chatter.chatID)
        sightings.willPost()
        context.server.post(text, in: chatID, from: chatter.partner) { [weak self] result, postedAt in
            guard let self else { return }
            guard case .success(let message) = result else {
                _ = self.sightings.didPost(nil)
                return
            }
            self.context.line("partner-sent", client: index, chat: chatID, message: message.id)
            if let seen = self.sightings.didPost(message.id) {
                self.delivered(message.id, seen.chatter, postedAt, seen.visibleAt)
            } else {
                self.postedAt[message.id] = postedAt
            }
        }
    }

    /// Opens `chatter`'s chat screen; each partner message that becomes visible on it is timed.
    func openChat(of chatter: DirectChatter) {
        let index = chatter.index
        chatter.openChat(context: context) { [weak self] id in self?.visible(id, on: index) }
    }

    /// `message` became visible on `chatter`'s screen now (the run's time, not the phone's:
    /// its clock may be skewed, `--faults clock-skew`).
    private func visible(_ message: Int64, on chatter: Int) {
        guard let posted = postedAt.removeValue(forKey: message) else { return sightings.sawUnposted(message, (chatter, context.now)) }
        delivered(message, chatter, posted, context.now)
    }
}
