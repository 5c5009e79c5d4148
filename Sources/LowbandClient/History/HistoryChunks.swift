/// The chunks of one chat, kept sorted, disjoint and never touching: the pure part of the
/// history cache, with no database in sight.
///
/// Inserting a range that overlaps or touches existing chunks merges them into one, so a page
/// that closes the gap between two chunks leaves a single chunk. A gap is never papered over:
/// only ranges the server vouched for are inserted (see ``HistoryCoverage``).
public struct HistoryChunks: Hashable, Sendable {
    /// The chat whose chunks these are.
    public let chatID: Int64
    /// Oldest first.
    public private(set) var chunks: [HistoryChunk]

    package init(chatID: Int64, chunks: [HistoryChunk] = []) {
        self.chatID = chatID
        self.chunks = []
        for chunk in chunks { insert(oldestID: chunk.oldestID, newestID: chunk.newestID) }
    }

    /// What one insertion did, for the store and for logs.
    public struct Insertion: Hashable, Sendable {
        /// The chunk now holding the inserted range.
        public var result: HistoryChunk
        /// Existing chunks absorbed into `result` (two or more: a gap was closed).
        public var absorbed: [HistoryChunk]
    }

    /// Adds the range `oldestID...newestID`, merging every chunk it overlaps or touches.
    @discardableResult
    public mutating func insert(oldestID: Int64, newestID: Int64) -> Insertion {
        var merged = HistoryChunk(chatID: chatID, oldestID: oldestID, newestID: newestID)
        var absorbed: [HistoryChunk] = []
        var kept: [HistoryChunk] = []
        kept.reserveCapacity(chunks.count + 1)
        for chunk in chunks {
            if chunk.touches(merged) {
                absorbed.append(chunk)
                merged.oldestID = min(merged.oldestID, chunk.oldestID)
                merged.newestID = max(merged.newestID, chunk.newestID)
            } else {
                kept.append(chunk)
            }
        }
        let index = kept.firstIndex { $0.oldestID > merged.newestID } ?? kept.endIndex
        kept.insert(merged, at: index)
        chunks = kept
        return Insertion(result: merged, absorbed: absorbed)
    }

    /// Inserts what `coverage` vouches for; nil when it vouches for nothing.
    @discardableResult
    public mutating func insert(_ coverage: HistoryCoverage) -> Insertion? {
        guard let range = coverage.range else { return nil }
        return insert(oldestID: range.lowerBound, newestID: range.upperBound)
    }

    /// Forgets the chunk holding `messageID`, when that message turns up although the chunk
    /// claimed to hold every message of its range: the claim was wrong somewhere in the range,
    /// so none of it is trusted; the messages stay cached and their range is asked for again.
    public mutating func forgetChunk(containing messageID: Int64) {
        chunks.removeAll { $0.contains(messageID) }
    }

    /// The chunk holding `messageID`, if the cache has it.
    public func chunk(containing messageID: Int64) -> HistoryChunk? {
        chunks.first { $0.contains(messageID) }
    }
}
