public import LowbandClient
import LowbandFixtures
public import LowbandShaper

/// What a ``PushToVisibleHarness`` is made of; every argument has a default.
public struct PushHarnessConfiguration: Sendable {
    /// The network between the server and the client (the proxy's one simulated device).
    public var profile: NetworkProfile
    /// Seeds every random decision of the link (jitter, loss, outages, wake-ups).
    public var shaperSeed: UInt64
    /// Seeds the server's world: users, tokens, chats, history.
    public var serverSeed: UInt64
    /// Seeds the client engine (client ids, back-off jitter).
    public var clientSeed: UInt64
    /// The user the client logs in as; the pushes come from another member of their chat.
    public var userID: Int64
    /// The text of every push, followed by ` #000001` (the push's number, six digits so every
    /// push has the same size) so each push is told apart. Long enough by
    /// default for the frame's payload to be LZ4-compressed, so the client also decompresses.
    public var messageText: String
    /// The open chat screen. The product's default: pushes are spaced so each finds its update
    /// queue idle (a push arriving during the previous one's animation would wait for it).
    public var screen: ScreenConfiguration
    public var connection: ConnectionConfiguration
    /// Login plus the chat's first page must be on screen within this.
    public var setupTimeout: Duration
    /// One push must be visible within this (a loss stall or an outage takes seconds).
    public var pushTimeout: Duration

    public init(
        profile: NetworkProfile = PushHarnessConfiguration.perfect,
        shaperSeed: UInt64 = 1,
        serverSeed: UInt64 = 1,
        clientSeed: UInt64 = 1,
        userID: Int64 = 1,
        messageText: String = PushHarnessConfiguration.fixtureParagraph(),
        screen: ScreenConfiguration = ScreenConfiguration(),
        connection: ConnectionConfiguration = ConnectionConfiguration(),
        setupTimeout: Duration = .seconds(60),
        pushTimeout: Duration = .seconds(120)
    ) {
        self.profile = profile
        self.shaperSeed = shaperSeed
        self.serverSeed = serverSeed
        self.clientSeed = clientSeed
        self.userID = userID
        self.messageText = messageText
        self.screen = screen
        self.connection = connection
        self.setupTimeout = setupTimeout
        self.pushTimeout = pushTimeout
    }

    /// The text of the `number`-th push.
    public func text(ofPush number: Int) -> String {
        let digits = String(number)
        return "\(messageText) #\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits)"
    }

    /// No shaping at all, the same figures as `profiles/perfect.yaml`, for use without files.
    public static let perfect = NetworkProfile(
        name: "perfect",
        summary: "Perfect — no rate limit, no delay, no loss",
        downlink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000),
        uplink: LinkProfile(rate: .unlimited, queueBytes: 1_000_000)
    )

    /// The first message text of the seeded fixtures with at least `minimumBytes` UTF-8 bytes:
    /// a realistic paragraph from the long tail of chat messages (the longest of the first
    /// 10,000 texts if none is that long).
    public static func fixtureParagraph(seed: UInt64 = 1, minimumBytes: Int = 300) -> String {
        var fixtures = MessengerFixtures(seed: seed)
        var longest = ""
        for _ in 0 ..< 10_000 {
            let text = fixtures.text()
            if text.utf8.count >= minimumBytes { return text }
            if text.utf8.count > longest.utf8.count { longest = text }
        }
        return longest
    }
}
