/// The stages a message's time is split into, from the sender storing it to it being visible on
/// a receiver's screen, in the order the message goes through them. They add up to the total
/// exactly: each is measured between two recorded instants of the same message, and the
/// network's share of each direction is split by the shaper's own decisions.
package enum LatencyStage: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the sender's outbox: from being stored to the request that the server stored it from
    /// leaving the engine (waiting for a session, for earlier sends of the chat, for retries).
    case outboxWait = "outbox_wait"
    /// Handed to the network, waiting behind other bytes for the uplink's bottleneck.
    case uplinkQueue = "uplink_queue"
    /// Held because a piece of the connection's uplink was lost (retransmission time-outs).
    case uplinkLossStalls = "uplink_loss_stalls"
    /// Serialisation of its last piece at the uplink's rate plus propagation, jitter and outages.
    case uplinkTransit = "uplink_transit"
    /// In the server: from the request arriving to the push leaving for this receiver.
    case server
    /// The receiver had no session when the message was stored: until its next login reached
    /// the server (its delta sync then carried the message).
    case resyncWait = "resync_wait"
    /// The push (or login reply) handed to the network, waiting behind other bytes for the
    /// downlink's bottleneck or for the link to come back.
    case downlinkQueue = "downlink_queue"
    /// Held because a piece of the connection's downlink was lost (retransmission time-outs).
    case downlinkLossStalls = "downlink_loss_stalls"
    /// Serialisation of its last piece at the downlink's rate plus propagation, jitter and outages.
    case downlinkTransit = "downlink_transit"
    /// In the receiving engine: decoding the frame and storing the message in its cache.
    case clientStore = "client_store"
    /// Waiting on the chat screen's serial update queue until the row is on screen (zero when
    /// the receiver has no screen of that chat open).
    case screenQueue = "screen_queue"

    /// Words for tables and charts.
    package var label: String {
        switch self {
        case .outboxWait: "outbox wait"
        case .uplinkQueue: "uplink queue"
        case .uplinkLossStalls: "uplink loss stalls"
        case .uplinkTransit: "uplink transit"
        case .server: "server"
        case .resyncWait: "resync wait"
        case .downlinkQueue: "downlink queue"
        case .downlinkLossStalls: "downlink loss stalls"
        case .downlinkTransit: "downlink transit"
        case .clientStore: "client decode + store"
        case .screenQueue: "screen queue"
        }
    }
}

/// Where one delivered message's time went, for one receiver.
package struct MessageBreakdown: Sendable, Hashable, Codable {
    /// The server's message id.
    package var message: Int64
    /// The chat the message is in.
    package var chat: Int64
    /// The sending client (0-based); nil when another user wrote it through the server.
    package var sender: Int?
    /// The receiving client (0-based).
    package var receiver: Int
    /// When the sender stored it (or the server did, without a sending client), seconds.
    package var startSeconds: Double
    /// Milliseconds per stage, indexed like `LatencyStage/allCases`.
    package var stages: [Double]
    /// How it reached the receiver: `push` or `login` (the delta sync of a later login).
    package var carrier: String
    /// Times the sender's engine sent the request (more than one: retries).
    package var attempts: Int
    /// What the stages alone cannot say: for a message a login carried after its push was lost
    /// with a dying connection, where the push waited and how that connection ended.
    package var note: String?

    /// A breakdown; `stages` is indexed like `LatencyStage.allCases`.
    package init(message: Int64, chat: Int64, sender: Int?, receiver: Int, startSeconds: Double, stages: [Double], carrier: String, attempts: Int) {
        self.message = message
        self.chat = chat
        self.sender = sender
        self.receiver = receiver
        self.startSeconds = startSeconds
        self.stages = stages
        self.carrier = carrier
        self.attempts = attempts
    }

    /// The whole time, milliseconds: the sum of the stages.
    package var totalMilliseconds: Double { stages.reduce(0, +) }

    /// The milliseconds spent in `stage`; 0 when the breakdown does not have it.
    package func milliseconds(_ stage: LatencyStage) -> Double {
        let index = LatencyStage.allCases.firstIndex(of: stage)!
        return index < stages.count ? stages[index] : 0
    }
}
