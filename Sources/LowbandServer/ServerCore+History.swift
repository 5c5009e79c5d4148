import LowbandWire

extension ServerCore {
    /// A page of a chat's history next to an anchor, oldest first.
    ///
    /// The anchor is a message id and is not in the page; it need not exist (the page starts
    /// at the next id either way). No anchor means the newest end: `older` gives the newest
    /// `count` messages, `newer` an empty page that has reached the end. A page that would not
    /// fit in one frame is shortened on the side away from the anchor (and `reachedEnd` is false).
    func historyReply(_ request: HistoryRequest, userID: Int64, frame: Frame) throws(ErrorReply) -> Frame {
        let limit = configuration.limits.historyPageSize
        guard (1 ... limit).contains(request.count) else {
            throw ErrorReply(.badRequest, "history count \(request.count) is out of range: ask for 1...\(limit) messages")
        }
        let (index, _) = try memberChat(request.chatID, userID: userID)
        let chat = chats[index]
        var range: Range<Int>
        switch (request.direction, request.anchor) {
        case (.older, let anchor):
            let end = anchor.map { chat.firstIndex(atLeast: $0) } ?? chat.messages.count
            range = max(0, end - request.count) ..< end
        case (.newer, nil):
            range = chat.messages.count ..< chat.messages.count
        case (.newer, let anchor?):
            let start = chat.firstIndex(atLeast: anchor == .max ? anchor : anchor + 1)
            range = start ..< min(chat.messages.count, start + request.count)
        }
        while true {
            let reachedEnd = request.direction == .older ? range.lowerBound == 0 : range.upperBound == chat.messages.count
            let page = HistoryReply(chatID: chat.id, messages: Array(chat.messages[range]), reachedEnd: reachedEnd)
            let reply: Frame
            do {
                reply = try Frame.response(page, answering: frame)
            } catch {
                throw ErrorReply(.internalError, "cannot encode the history reply: \(error)")
            }
            if fits(reply) || range.count <= 1 {
                guard fits(reply) else {
                    throw ErrorReply(.payloadTooLarge, "message of chat \(chat.id) is too large for one frame")
                }
                return reply
            }
            let keep = range.count / 2
            range = request.direction == .older ? range.upperBound - keep ..< range.upperBound : range.lowerBound ..< range.lowerBound + keep
        }
    }
}
