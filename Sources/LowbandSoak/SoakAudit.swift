package import LowbandWire

/// The soak's verdict, from the server's stored data and every client's cache: what was lost,
/// duplicated, reordered or left unsent.
///
/// - lost: a message a client saw acknowledged (its outbox task is `done` with a server id) that
///   the server does not hold under that id with that text;
/// - duplicated: a text stored once in some client's outbox that the server holds more than
///   once (a retried send applied twice);
/// - out of order: a client's messages to one chat whose server ids do not rise in the order the
///   client stored them (the outbox is first in, first out);
/// - diverged: a row a client's cache shows (chat, id) that the server holds with another text or
///   sender, or does not hold at all: the chat looks different on that phone;
/// - unsent: an outbox task not `done` at the end (the outbox did not drain).
package struct SoakAudit {
    package var stored = 0
    package var acknowledged = 0
    package var lost = 0
    package var duplicated = 0
    package var outOfOrder = 0
    package var diverged = 0
    package var unsent = 0
    /// The first problems, one line each, naming the client, chat and message.
    package var problems: [String] = []

    package static let problemLines = 20

    package var passed: Bool { lost == 0 && duplicated == 0 && outOfOrder == 0 && diverged == 0 && unsent == 0 }

    /// Judges `clients` (name and cache of each) against `server`, every message the server holds.
    package init(server: [Message], clients: [(name: String, database: SoakClientDatabase)]) {
        var byID: [ChatMessageKey: Message] = [:]
        var textCounts: [String: Int] = [:]
        for message in server {
            byID[ChatMessageKey(chatID: message.chatID, id: message.id)] = message
            textCounts[message.text, default: 0] += 1
        }
        for (name, database) in clients {
            var lastID: [Int64: (id: Int64, text: String)] = [:]
            for task in database.tasks {
                stored += 1
                if (textCounts[task.text] ?? 0) > 1 {
                    duplicated += 1
                    note("\(name): '\(task.text)' is on the server \(textCounts[task.text] ?? 0) times (chat \(task.chatID))")
                }
                guard task.state == "done", let messageID = task.messageID else {
                    unsent += 1
                    note("\(name): task \(task.id) '\(task.text)' is still \(task.state) in the outbox")
                    continue
                }
                acknowledged += 1
                guard let held = byID[ChatMessageKey(chatID: task.chatID, id: messageID)], held.text == task.text else {
                    lost += 1
                    note("\(name): '\(task.text)' was acknowledged as message \(messageID) in chat \(task.chatID), but the server does not hold it")
                    continue
                }
                if let previous = lastID[task.chatID], previous.id >= messageID {
                    outOfOrder += 1
                    note("\(name): '\(task.text)' (message \(messageID)) was stored after '\(previous.text)' (message \(previous.id)) in chat \(task.chatID)")
                }
                lastID[task.chatID] = (messageID, task.text)
            }
            for row in database.rows {
                let held = byID[ChatMessageKey(chatID: row.chatID, id: row.id)]
                if held?.text != row.text || held?.senderID != row.senderID {
                    diverged += 1
                    note("\(name): chat \(row.chatID) shows message \(row.id) '\(row.text)', the server \(held.map { "holds '\($0.text)'" } ?? "has no such message")")
                }
            }
        }
    }

    private mutating func note(_ line: String) {
        if problems.count < Self.problemLines { problems.append(line) }
    }
}

/// A message's place: its chat and its server id.
private struct ChatMessageKey: Hashable {
    package var chatID: Int64
    package var id: Int64
}
