import LowbandClient
import LowbandWire
import Testing

@Suite struct HistoryChunksTests {
    private func message(_ id: Int64, chat: Int64 = 1, text: String? = nil) -> Message {
        Message(id: id, chatID: chat, senderID: 7, text: text ?? "m\(id)", sentAt: 1_000 + id)
    }

    private func ranges(_ chunks: HistoryChunks) -> [ClosedRange<Int64>] {
        chunks.chunks.map { $0.oldestID ... $0.newestID }
    }

    @Test func overlappingRangesMergeIntoOne() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 10, newestID: 20)
        let insertion = chunks.insert(oldestID: 15, newestID: 30)
        #expect(ranges(chunks) == [10 ... 30])
        #expect(insertion.absorbed.count == 1)
    }

    @Test func disjointRangesStaySeparateAndSorted() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 50, newestID: 60)
        chunks.insert(oldestID: 10, newestID: 20)
        chunks.insert(oldestID: 30, newestID: 40)
        #expect(ranges(chunks) == [10 ... 20, 30 ... 40, 50 ... 60])
    }

    @Test func aRangeThatClosesAGapMergesBothNeighbours() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 1, newestID: 5)
        chunks.insert(oldestID: 20, newestID: 30)
        let insertion = chunks.insert(oldestID: 4, newestID: 19)
        #expect(ranges(chunks) == [1 ... 30])
        #expect(insertion.absorbed.count == 2)
    }

    @Test func adjacentIntegerRangesTouch() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 1, newestID: 5)
        chunks.insert(oldestID: 6, newestID: 9)
        #expect(ranges(chunks) == [1 ... 9])
        chunks.insert(oldestID: 11, newestID: 12)
        #expect(ranges(chunks) == [1 ... 9, 11 ... 12], "a missing id between is a gap")
    }

    @Test func extremeBoundsNeverOverflow() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: .min, newestID: 3)
        chunks.insert(oldestID: 10, newestID: .max)
        chunks.insert(oldestID: 4, newestID: 9)
        #expect(ranges(chunks) == [Int64.min ... Int64.max])
        #expect(chunks.chunks[0].reachesStart)
    }

    @Test func aChunkProvedWrongIsForgottenWhole() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 10, newestID: 40)
        chunks.insert(oldestID: 50, newestID: 60)
        chunks.forgetChunk(containing: 25)
        #expect(ranges(chunks) == [50 ... 60])
    }

    @Test func olderPageCoversDownFromJustBelowItsAnchor() {
        let request = HistoryRequest(chatID: 1, anchor: 100, direction: .older, count: 3)
        let reply = HistoryReply(chatID: 1, messages: [message(80), message(90), message(95)], reachedEnd: false)
        #expect(HistoryCoverage(request: request, reply: reply).range == 80 ... 99)
        let last = HistoryReply(chatID: 1, messages: [message(2)], reachedEnd: true)
        #expect(HistoryCoverage(request: request, reply: last).range == Int64.min ... 99)
        let nothing = HistoryReply(chatID: 1, messages: [], reachedEnd: true)
        #expect(HistoryCoverage(request: request, reply: nothing).range == Int64.min ... 99)
        let broken = HistoryReply(chatID: 1, messages: [], reachedEnd: false)
        #expect(HistoryCoverage(request: request, reply: broken).range == nil)
    }

    @Test func newerAndNewestPagesCoverTheirSpan() {
        let newer = HistoryRequest(chatID: 1, anchor: 100, direction: .newer, count: 3)
        #expect(HistoryCoverage(request: newer, reply: HistoryReply(chatID: 1, messages: [message(101), message(130)], reachedEnd: false)).range == 101 ... 130)
        #expect(HistoryCoverage(request: newer, reply: HistoryReply(chatID: 1, messages: [], reachedEnd: true)).range == nil)
        let newest = HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 3)
        #expect(HistoryCoverage(request: newest, reply: HistoryReply(chatID: 1, messages: [message(7), message(9)], reachedEnd: false)).range == 7 ... 9)
        #expect(HistoryCoverage(request: newest, reply: HistoryReply(chatID: 1, messages: [message(7), message(9)], reachedEnd: true)).range == Int64.min ... 9)
    }

    @Test func outOfOrderPagesEndInTheSameChunks() {
        // Three consecutive pages of one chat arriving in every order give the same result.
        let pages: [(HistoryRequest, HistoryReply)] = [
            (HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 2), HistoryReply(chatID: 1, messages: [message(50), message(60)], reachedEnd: false)),
            (HistoryRequest(chatID: 1, anchor: 50, direction: .older, count: 2), HistoryReply(chatID: 1, messages: [message(30), message(40)], reachedEnd: false)),
            (HistoryRequest(chatID: 1, anchor: 30, direction: .older, count: 2), HistoryReply(chatID: 1, messages: [message(10)], reachedEnd: true)),
        ]
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
            var chunks = HistoryChunks(chatID: 1)
            var counts: [Int] = []
            for index in order {
                chunks.insert(HistoryCoverage(request: pages[index].0, reply: pages[index].1))
                counts.append(chunks.chunks.count)
            }
            #expect(ranges(chunks) == [Int64.min ... 60], "order \(order)")
            if order == [2, 0, 1] { #expect(counts == [1, 2, 1], "the middle page closes the gap") }
        }
    }

    @Test func serverWinsInsideTheCoveredRangeOnly() {
        let cached = [message(5), message(10, text: "old"), message(15), message(40)]
        let page = [message(10, text: "edited"), message(12)]
        let reconciliation = HistoryReconciliation(cached: cached, page: page, covered: 8 ... 20)
        #expect(reconciliation.upserts.map(\.id) == [10, 12])
        #expect(reconciliation.replaced == 1)
        #expect(reconciliation.deletions == [15], "5 and 40 lie outside the page's range")
    }

    @Test func planReadsTheCacheWhenTheChunkHoldsAFullPage() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 10, newestID: 100)
        let plan = HistoryPlan.older(chatID: 1, anchor: 90, count: 5, newestKnownID: 100, chunks: chunks) { range in
            #expect(range == 10 ... 89)
            return 20
        }
        #expect(plan.source == .cache)
        #expect(plan.cacheRange == 10 ... 89)
    }

    @Test func planAsksTheServerForWhatTheChunkLacks() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 80, newestID: 100)
        let plan = HistoryPlan.older(chatID: 1, anchor: 90, count: 5, newestKnownID: 100, chunks: chunks) { _ in 2 }
        #expect(plan.source == .cacheAndServer)
        #expect(plan.serverRequest == HistoryRequest(chatID: 1, anchor: 80, direction: .older, count: 3))
    }

    @Test func planAsksTheServerAtAGap() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 80, newestID: 100)
        chunks.insert(oldestID: 10, newestID: 50)
        let plan = HistoryPlan.older(chatID: 1, anchor: 80, count: 5, newestKnownID: 100, chunks: chunks) { _ in 99 }
        #expect(plan.source == .server, "the chunk below is not continuous with 80")
        #expect(plan.serverRequest == HistoryRequest(chatID: 1, anchor: 80, direction: .older, count: 5))
    }

    @Test func planStopsAtTheStartOfTheChat() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: .min, newestID: 100)
        let plan = HistoryPlan.older(chatID: 1, anchor: 90, count: 5, newestKnownID: 100, chunks: chunks) { _ in 3 }
        #expect(plan.source == .cache)
        #expect(plan.reachesStart)
    }

    @Test func newestPageComesFromTheChunkHoldingTheNewestMessage() {
        var chunks = HistoryChunks(chatID: 1)
        chunks.insert(oldestID: 10, newestID: 100)
        let plan = HistoryPlan.older(chatID: 1, anchor: nil, count: 5, newestKnownID: 100, chunks: chunks) { range in
            #expect(range == 10 ... 100)
            return 30
        }
        #expect(plan.source == .cache)
        let empty = HistoryPlan.older(chatID: 1, anchor: nil, count: 5, newestKnownID: nil, chunks: HistoryChunks(chatID: 1)) { _ in 0 }
        #expect(empty.serverRequest == HistoryRequest(chatID: 1, anchor: nil, direction: .older, count: 5))
    }
}
