#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The first screen's rows straight from SQLite: open the file, one join, read the columns,
/// close. The floor the engine's cold start is compared with.
///
/// Uses the sqlite3 C API (the library GRDB links), with no Swift layer between the rows and
/// the values; strings are the only copies. Reads the same rows the engine shows: every chat,
/// newest activity first (ties by id), with its last message.
public struct RawChatListQuery {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    static let sql = """
        SELECT c.id, c.kind, c.title, c.unreadCount, c.updatedAt, m.id, m.senderID, m.text, m.sentAt
        FROM chat c LEFT JOIN message m ON m.chatID = c.id AND m.id = c.lastMessageID
        ORDER BY c.updatedAt DESC, c.id
        """

    /// Opens the file read-only, runs the query and closes the file.
    ///
    /// - Throws: ``StartupBenchError`` with SQLite's message when the file cannot be opened or
    ///   the query fails.
    public func run() throws -> [ChatListRow] {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw StartupBenchError("cannot open the cache read-only: \(Self.message(connection))", at: path)
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, Self.sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw StartupBenchError("cannot prepare the chat-list query: \(Self.message(connection))", at: path)
        }
        var rows: [ChatListRow] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw StartupBenchError("the chat-list query failed: \(Self.message(connection))", at: path)
            }
            let hasMessage = sqlite3_column_type(statement, 5) != SQLITE_NULL
            rows.append(ChatListRow(
                chatID: sqlite3_column_int64(statement, 0),
                kind: Self.text(statement, 1) ?? "",
                title: Self.text(statement, 2) ?? "",
                unreadCount: Int(sqlite3_column_int64(statement, 3)),
                updatedAt: sqlite3_column_int64(statement, 4),
                lastMessageID: hasMessage ? sqlite3_column_int64(statement, 5) : nil,
                lastSenderID: hasMessage ? sqlite3_column_int64(statement, 6) : nil,
                lastText: hasMessage ? Self.text(statement, 7) : nil,
                lastSentAt: hasMessage ? sqlite3_column_int64(statement, 8) : nil))
        }
        return rows
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func message(_ connection: OpaquePointer?) -> String {
        connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    }
}
