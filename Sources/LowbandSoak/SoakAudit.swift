package import LowbandFindings
package import LowbandWire

/// The soak's verdict: the messenger's promises, counted in a `PromiseBook` as `lowband run`
/// counts them, judged from the server's stored data and every client's cache once the
/// processes are done.
///
/// - `duplicated` and `order` are the book's shared checks, the same code a run's checker runs:
///   every message with a client id is stored once per sender and client id; a client's sends
///   get server ids that rise within each chat in the order it stored them;
/// - `acknowledged_kept`: a send a client saw acknowledged (its outbox task is `done` with a
///   server id) is held by the server under that id with that text, through every kill;
/// - `outbox_not_drained`: every task a client stored has left its outbox by the end (a soak
///   client runs until its outbox is empty); one case per task, so broken cases never outnumber
///   the cases looked at;
/// - `cache_diverged`: every row a client's cache shows (chat, id) is held by the server with the
///   same text and sender.
package struct SoakAudit {
    /// Messages the clients stored in their outboxes.
    package var stored = 0
    /// Of those, acknowledged by the server.
    package var acknowledged = 0
    /// The checks and the first broken cases of each.
    package private(set) var book = PromiseBook(keep: 20)

    /// The promises a soak judges, in the order it reports them.
    package static let promises = ["acknowledged_kept", "duplicated", "order", "outbox_not_drained", "cache_diverged"]

    /// Whether every promise held.
    package var passed: Bool { book.held }

    /// Judges `clients` (name and cache of each) against `server`, every message the server
    /// holds; broken cases are placed at `seconds`, the soak's end.
    package init(server: [Message], clients: [(name: String, database: SoakClientDatabase)], at seconds: Double = 0) {
        var byID: [ChatMessageKey: Message] = [:]
        var chats: [Int64: [PromiseBook.StoredMessage]] = [:]
        for message in server {
            byID[ChatMessageKey(chatID: message.chatID, id: message.id)] = message
            chats[message.chatID, default: []].append(
                PromiseBook.StoredMessage(chat: message.chatID, id: message.id, sender: message.senderID, clientID: message.clientID, seconds: seconds))
        }
        var cases: [String: Int] = [:]
        var broken: [String: Int] = [:]
        func tally(_ name: String, _ counts: (checked: Int, broken: Int)) {
            cases[name, default: 0] += counts.checked
            broken[name, default: 0] += counts.broken
        }
        func check(_ name: String, _ holds: Bool, client: Int, chat: Int64? = nil, message: Int64? = nil, clientID: UInt64? = nil, _ detail: @autoclosure () -> String) {
            tally(name, (1, holds ? 0 : 1))
            guard !holds else { return }
            book.violate(name, seconds: seconds, client: client, chat: chat, message: message, clientID: clientID, detail: detail())
        }
        tally("duplicated", book.checkServerDuplicates(chats.keys.sorted().map { chats[$0]!.sorted { $0.id < $1.id } }))
        for (index, (name, database)) in clients.enumerated() {
            var writes: [PromiseBook.Write] = []
            for task in database.tasks {
                stored += 1
                let drained = task.state == "done" && task.messageID != nil
                check("outbox_not_drained", drained, client: index, chat: task.chatID, clientID: task.clientID,
                      "\(name): task \(task.id) '\(task.text)' is still \(task.state) in the outbox")
                guard drained, let messageID = task.messageID else { continue }
                acknowledged += 1
                let held = byID[ChatMessageKey(chatID: task.chatID, id: messageID)]
                check("acknowledged_kept", held?.text == task.text, client: index, chat: task.chatID, message: messageID, clientID: task.clientID,
                      "\(name): '\(task.text)' was acknowledged as message \(messageID) in chat \(task.chatID), but the server does not hold it")
                if held?.text == task.text, let clientID = task.clientID {
                    writes.append(PromiseBook.Write(chat: task.chatID, clientID: clientID, messageID: messageID, seconds: seconds))
                }
            }
            tally("order", book.checkWrittenOrder(client: index, writes))
            for row in database.rows {
                let held = byID[ChatMessageKey(chatID: row.chatID, id: row.id)]
                check("cache_diverged", held?.text == row.text && held?.senderID == row.senderID, client: index, chat: row.chatID, message: row.id,
                      "\(name): chat \(row.chatID) shows message \(row.id) '\(row.text)', the server \(held.map { "holds '\($0.text)'" } ?? "has no such message")")
            }
        }
        for name in Self.promises {
            book.record(name, checked: cases[name] ?? 0, violations: broken[name] ?? 0)
        }
        book.sortViolations()
    }
}

/// A message's place: its chat and its server id.
private struct ChatMessageKey: Hashable {
    var chatID: Int64
    var id: Int64
}
