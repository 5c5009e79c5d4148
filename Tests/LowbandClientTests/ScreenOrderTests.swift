import LowbandDeterminism
import LowbandWire
import Testing

@testable import LowbandClient

/// The chat screen shows a chat in the server's order on every device.
@Suite struct ScreenOrderTests {
    /// A history with nothing in it: the screen starts empty and at the chat's start.
    private final class EmptyHistory: HistoryLoading {
        let scheduler: VirtualScheduler
        init(scheduler: VirtualScheduler) { self.scheduler = scheduler }
        func loadPage(chatID: Int64, olderThan anchor: Int64?, count: Int, deliver: @escaping (HistoryPage) -> Void) {
            scheduler.execute { deliver(HistoryPage(chatID: chatID, messages: [], source: .cache, reachesStart: true, reachesEnd: true, isFinal: true)) }
        }
    }

    /// Found by `lowband explore --scenario subway` (seeds 12 and 25, `order`): the rider's
    /// message was stored as 90, but its acknowledgement came after the partner's 94 was on the
    /// screen, and the stored message took its local echo's place below 94. The partner's
    /// device shows 90 before 94; so must the rider's.
    @Test func anAcknowledgedMessageTakesItsPlaceInTheServersOrder() {
        let scheduler = VirtualScheduler()
        let screen = ChatScreenModel(chatID: 1, userID: 7, history: EmptyHistory(scheduler: scheduler), scheduler: scheduler, workClock: ManualWorkClock())
        screen.open()
        scheduler.advance(by: .seconds(1))
        let task = OutboxTask(id: 1, kind: .send, state: .pending, dependsOn: nil, chatID: 1, clientID: 555, text: "mine", attachment: nil, uploadID: nil, totalSize: nil, acknowledgedOffset: 0, url: nil, messageID: nil, attempts: 0, lastError: nil)
        screen.outboxDidEmit(.stored(task))
        screen.messageArrived(Message(id: 94, chatID: 1, senderID: 8, text: "theirs", sentAt: 2), at: scheduler.now)
        screen.outboxDidEmit(.sent(taskID: 1, message: Message(id: 90, chatID: 1, senderID: 7, clientID: 555, text: "mine", sentAt: 1)))
        scheduler.advance(by: .seconds(1))
        #expect(screen.rows.map(\.id) == [.message(90), .message(94)])
    }
}
