public import LowbandWire

/// How a server page changes what the cache holds inside the range the page covers.
///
/// The server wins: inside the covered range the page is the truth, so a cached message the
/// page lacks is deleted (it was deleted on the server) and a cached message that differs is
/// replaced (edited on the server). Messages outside the covered range are never touched.
public struct HistoryReconciliation: Hashable, Sendable {
    /// Messages to write (new or changed), oldest first.
    public var upserts: [Message]
    /// Cached ids the page proves no longer exist, oldest first.
    public var deletions: [Int64]
    /// Of `upserts`, how many replace a cached message with different content.
    public var replaced: Int

    /// Compares the cached messages with a server page that proves `covered` complete (nil: the
    /// page proves no range, so nothing is deleted).
    package init(cached: [Message], page: [Message], covered: ClosedRange<Int64>?) {
        var cachedByID: [Int64: Message] = [:]
        for message in cached { cachedByID[message.id] = message }
        let pageIDs = Set(page.map(\.id))
        let sortedPage = page.sorted { $0.id < $1.id }
        upserts = sortedPage.filter { cachedByID[$0.id] != $0 }
        replaced = sortedPage.filter { message in cachedByID[message.id].map { $0 != message } ?? false }.count
        deletions = cached
            .filter { message in (covered?.contains(message.id) ?? false) && !pageIDs.contains(message.id) }
            .map(\.id)
            .sorted()
    }

    /// True when the page changes nothing in the cache.
    public var isEmpty: Bool { upserts.isEmpty && deletions.isEmpty }
}
