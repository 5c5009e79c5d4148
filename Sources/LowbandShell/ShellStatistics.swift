package import LowbandShaper

/// What crossed a shell's link, per direction: frames and bytes offered, delivered and dropped
/// (by cause). Bytes are the IP packets' (the link's unit), not counting the Ethernet header.
package struct ShellStatistics: Sendable, Hashable {
    package struct Lane: Sendable, Hashable {
        package var offeredFrames = 0
        package var offeredBytes = 0
        package var deliveredFrames = 0
        package var deliveredBytes = 0
        /// Drops by ``PacketDrop`` name, plus `tap-write` for frames the TAP refused.
        package var dropped: [String: Int] = [:]

        package var droppedFrames: Int { dropped.values.reduce(0, +) }
    }

    package var upstream = Lane()
    package var downstream = Lane()

    package init() {}

    package subscript(direction: Direction) -> Lane {
        get { direction == .upstream ? upstream : downstream }
        set { if direction == .upstream { upstream = newValue } else { downstream = newValue } }
    }

    /// One line: `up 117/120 frames delivered (15000 B), 3 dropped (loss 3); down …`.
    package var summary: String {
        Direction.allCases.map { direction in
            let lane = self[direction]
            let causes = lane.dropped.keys.sorted().map { "\($0) \(lane.dropped[$0]!)" }.joined(separator: ", ")
            let name = direction == .upstream ? "up" : "down"
            let onTheWay = lane.offeredFrames - lane.deliveredFrames - lane.droppedFrames
            return "\(name) \(lane.deliveredFrames)/\(lane.offeredFrames) frames delivered (\(lane.deliveredBytes) B), \(lane.droppedFrames) dropped"
                + (causes.isEmpty ? "" : " (\(causes))") + (onTheWay > 0 ? ", \(onTheWay) still on the link at the end" : "")
        }.joined(separator: "; ")
    }
}
