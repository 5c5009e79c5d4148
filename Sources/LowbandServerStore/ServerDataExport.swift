import Foundation
import GRDB
import LowbandBasics
package import LowbandServer

/// Reads a data directory's messages back, for `lowband server inspect` and for checks that
/// nothing acknowledged was lost or duplicated. Reading works while a server runs on the
/// directory (WAL: a reader sees the last commit).
package enum ServerDataExport {
    /// One stored message.
    package struct Row: Sendable, Hashable, Codable {
        /// The chat the message is in.
        package var chatID: Int64
        /// The message's id, ascending in its chat.
        package var messageID: Int64
        /// The user who sent it.
        package var senderID: Int64
        /// The sending client's id (the idempotency key with the sender); nil for seeded messages.
        package var clientID: UInt64?
        /// When the server accepted it: milliseconds since the Unix epoch by the server's clock.
        package var sentAt: Int64
        /// The message's text.
        package var text: String
    }

    /// Every message of the directory's data (or of `chatID`), by chat then message id: each
    /// chat's server order.
    package static func messages(in directory: String, chatID: Int64? = nil) throws(ServerStoreError) -> [Row] {
        let path = ServerDataDirectory.databasePath(in: directory)
        let queue = try ServerDatabase.open(path: path, readOnly: true)
        do {
            return try queue.read { db in
                var sql = "SELECT chat_id, id, sender_id, client_id, sent_at, text FROM messages"
                var arguments: StatementArguments = []
                if let chatID {
                    sql += " WHERE chat_id = ?"
                    arguments = [chatID]
                }
                return try GRDB.Row.fetchAll(db, sql: sql + " ORDER BY chat_id, id", arguments: arguments).map { row in
                    Row(
                        chatID: row[0], messageID: row[1], senderID: row[2], clientID: (row[3] as Int64?).map { UInt64(bitPattern: $0) },
                        sentAt: row[4], text: row[5]
                    )
                }
            }
        } catch {
            throw ServerStoreError(.unreadable, "cannot read the messages in \(path): \(error)")
        }
    }

    /// `rows` as CSV with a header: chat_id,message_id,sender_id,client_id,sent_at,text (RFC 4180
    /// through the one CSV writer: text quoted when it holds a comma, quote or line break).
    package static func csv(_ rows: [Row]) -> String {
        var text = CSVWriter.line(["chat_id", "message_id", "sender_id", "client_id", "sent_at", "text"])
        for row in rows {
            text += CSVWriter.line([
                String(row.chatID), String(row.messageID), String(row.senderID), row.clientID.map(String.init) ?? "", String(row.sentAt), row.text,
            ])
        }
        return text
    }
}
