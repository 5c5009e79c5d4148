extension LatencyStage {
    /// What the stage holds, in a few words, for the glossary under the report's stage charts
    /// (the long form is each case's doc comment).
    var meaning: String {
        switch self {
        case .outboxWait: "in the sender's outbox until its request left the engine"
        case .uplinkQueue: "queued behind other bytes at the uplink's bottleneck"
        case .uplinkLossStalls: "held while lost uplink pieces were retransmitted"
        case .uplinkTransit: "the last piece's serialisation, propagation, jitter and outages, client to server"
        case .server: "in the server until the push left for this receiver"
        case .resyncWait: "the receiver had no session: until its next login's delta sync carried the message"
        case .downlinkQueue: "queued behind other bytes at the downlink's bottleneck"
        case .downlinkLossStalls: "held while lost downlink pieces were retransmitted"
        case .downlinkTransit: "the last piece's serialisation, propagation, jitter and outages, server to client"
        case .clientStore: "the receiving engine decoding the frame and caching the message"
        case .screenQueue: "on the chat screen's serial update queue until the row showed"
        }
    }
}
