import LowbandServerStore
package import LowbandWire

/// Every message the server's `--data` directory holds, read after the server has stopped.
package enum SoakServerData {
    package static func messages(in directory: String) throws -> [Message] {
        try ServerDataExport.messages(in: directory).map { row in
            Message(id: row.messageID, chatID: row.chatID, senderID: row.senderID, clientID: row.clientID, text: row.text, sentAt: row.sentAt)
        }
    }
}
