extension ChartPalette {
    /// The fill of a stage's bars and the class of text drawn on them (`on-light` or `on-dark`;
    /// the style sheet colours text, so a `fill` attribute on it would lose).
    ///
    /// Grouped by where the time is spent so a glance reads the direction: the sender's outbox
    /// pink, the uplink in oranges, the server green, waiting offline grey, the downlink in
    /// blues, the receiver's engine and screen yellow and violet. Within a direction queue,
    /// loss stalls and transit go mid, dark, light, so neighbours contrast. Text is dark on the
    /// light fills and white on the dark ones.
    static func stage(_ stage: LatencyStage) -> (fill: String, textClass: String) {
        switch stage {
        case .outboxWait: ("#CC79A7", "on-light")
        case .uplinkQueue: ("#E69F00", "on-light")
        case .uplinkLossStalls: ("#8F4A00", "on-dark")
        case .uplinkTransit: ("#F6CD7A", "on-light")
        case .server: ("#009E73", "on-dark")
        case .resyncWait: ("#6B6B6B", "on-dark")
        case .downlinkQueue: ("#0072B2", "on-dark")
        case .downlinkLossStalls: ("#003A5D", "on-dark")
        case .downlinkTransit: ("#56B4E9", "on-light")
        case .clientStore: ("#F0E442", "on-light")
        case .screenQueue: ("#7E57C2", "on-dark")
        }
    }

    /// The marks of broken promises on the timeline.
    static let violation = "#B0006E"
}
