import Foundation
import GRDB

/// What one soak client's SQLite cache holds at the end: its outbox (every message it stored,
/// sent or not) and the chat rows it shows.
///
/// Read straight from the file with SQL, read-only, after the client process has exited: the
/// cache is the client's own record of what it promised the user, independent of its stdout.
package struct SoakClientDatabase {
    package struct Task {
        package var id: Int64
        package var chatID: Int64
        package var clientID: UInt64?
        package var text: String
        package var state: String
        /// The server's id, once acknowledged.
        package var messageID: Int64?
    }

    package struct Row {
        package var chatID: Int64
        package var id: Int64
        package var senderID: Int64
        package var text: String
    }

    package var path: String
    /// Send tasks in the order they were stored.
    package var tasks: [Task]
    /// Message rows, by chat then id (the order the chat shows them).
    package var rows: [Row]

    /// Reads the cache at `path`; a file that was never created reads as empty.
    package static func read(_ path: String) throws -> SoakClientDatabase {
        guard FileManager.default.fileExists(atPath: path) else { return SoakClientDatabase(path: path, tasks: [], rows: []) }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            guard try db.tableExists("outboxTask") else { return SoakClientDatabase(path: path, tasks: [], rows: []) }
            let tasks = try GRDB.Row.fetchAll(db, sql: "SELECT id, chatID, clientID, text, state, messageID FROM outboxTask WHERE kind = 'send' ORDER BY id").map { row in
                Task(id: row["id"], chatID: row["chatID"], clientID: (row["clientID"] as Int64?).map { UInt64(bitPattern: $0) }, text: row["text"] ?? "", state: row["state"], messageID: row["messageID"])
            }
            let rows = try GRDB.Row.fetchAll(db, sql: "SELECT chatID, id, senderID, text FROM message ORDER BY chatID, id").map { row in
                Row(chatID: row["chatID"], id: row["id"], senderID: row["senderID"], text: row["text"])
            }
            return SoakClientDatabase(path: path, tasks: tasks, rows: rows)
        }
    }

    /// How many send tasks the cache holds (what a restart must not store again).
    package static func storedCount(_ path: String) throws -> Int {
        try read(path).tasks.count
    }
}
