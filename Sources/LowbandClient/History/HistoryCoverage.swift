public import LowbandWire

/// The range of ids a server answer proves complete: every message of the chat in the range
/// is in the answer (or already known to be at the range's ends).
///
/// A page older than anchor `A` holds the `count` messages just below `A`, so it covers
/// `oldest...A-1`, and down to the chat's start when `reachedEnd`. A page newer than `A` covers
/// `A+1...newest`. The newest page (no anchor) covers its own span. An empty page proves
/// nothing except, older than `A` with `reachedEnd`, that nothing lies below `A`.
/// Live pushes are continuous with the previous newest message of the chat (see
/// ``live(previousNewestID:messageID:)``).
public struct HistoryCoverage: Hashable, Sendable {
    /// Nil when the answer proves no range.
    public var range: ClosedRange<Int64>?

    package init(range: ClosedRange<Int64>?) { self.range = range }

    /// What a history reply proves, given the request it answers.
    public init(request: HistoryRequest, reply: HistoryReply) {
        let ids = reply.messages.map(\.id)
        let oldest = ids.min()
        let newest = ids.max()
        switch (request.direction, request.anchor) {
        case (.older, let anchor?):
            guard anchor > .min else { range = nil; return }
            let upper = anchor - 1
            let lower = reply.reachedEnd ? Int64.min : (oldest ?? anchor)
            range = lower <= upper && (oldest != nil || reply.reachedEnd) ? lower ... upper : nil
        case (.newer, let anchor?):
            guard let newest, anchor < .max else { range = nil; return }
            range = anchor + 1 <= newest ? (anchor + 1) ... newest : nil
        case (_, nil):
            guard let oldest, let newest else { range = nil; return }
            range = (reply.reachedEnd && request.direction == .older ? Int64.min : oldest) ... newest
        }
    }

    /// A message that arrived live, right after `previousNewestID`, on a session that has seen
    /// every message of the chat since `previousNewestID` was its newest.
    public static func live(previousNewestID: Int64, messageID: Int64) -> HistoryCoverage {
        HistoryCoverage(range: previousNewestID <= messageID ? previousNewestID ... messageID : nil)
    }

    /// A single message known on its own (a chat's last message from the chat list).
    public static func single(_ messageID: Int64) -> HistoryCoverage {
        HistoryCoverage(range: messageID ... messageID)
    }
}
