import GRDB
import Synchronization
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// When the cache's WAL is copied back into the file: on a turn of the caller's choosing, not
/// inside the commit that made the log long.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages and
/// syncs the log and the file there (two `fdatasync`s, 2–4 ms on disk): about every 110th
/// pushed message paid them before its row could be shown (the push-to-visible benchmark's
/// slowest sample on `perfect`). This replaces it with a WAL hook that only notes the log's
/// length; the engine checkpoints on a later turn of its scheduler, after the screen update the
/// commit led to (``ClientEngine``). Durability is unchanged: every commit is in the log first,
/// whenever it is copied. A log that nobody checkpoints still stops at ``limit`` pages, where
/// the commit checkpoints itself as before.
package final class WALCheckpoints: Sendable {
    /// Log pages from which a checkpoint is due (SQLite's automatic threshold).
    let threshold: Int32
    /// Log pages at which the commit checkpoints itself, as SQLite's automatic checkpoint does.
    let limit: Int32
    private let pages = Mutex<Int32>(0)

    package init(threshold: Int32 = 1000, limit: Int32 = 4000) {
        self.threshold = threshold
        self.limit = max(limit, threshold)
    }

    /// True when the log holds at least ``threshold`` pages that no checkpoint has copied.
    var isDue: Bool {
        pages.withLock { $0 >= threshold }
    }

    /// Replaces SQLite's automatic checkpoint on `db`'s connection with this one. The hook
    /// holds `self` unretained: ``uninstall(from:)`` before `self` goes (``CacheDatabase``'s deinit).
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, Self.hook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives `db`'s connection SQLite's automatic checkpoint back.
    static func uninstall(from db: Database) {
        // A closed connection has nothing to give back.
        guard let connection = db.sqliteConnection else { return }
        sqlite3_wal_autocheckpoint(connection, 1000)
    }

    /// Copies the log into the file (PASSIVE: never waits for readers, which a queue has none
    /// of) and syncs it, as SQLite's automatic checkpoint does.
    ///
    /// - Throws: `DatabaseError` when the checkpoint fails.
    func checkpoint(_ db: Database) throws {
        let code = sqlite3_wal_checkpoint_v2(db.sqliteConnection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot checkpoint the cache's WAL")
        }
        pages.withLock { $0 = 0 }
    }

    /// Called by SQLite after each commit with the log's length in pages.
    private static let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, connection, name, count in
        guard let context else { return SQLITE_OK }
        let checkpoints = Unmanaged<WALCheckpoints>.fromOpaque(context).takeUnretainedValue()
        guard count >= checkpoints.limit else {
            checkpoints.pages.withLock { $0 = count }
            return SQLITE_OK
        }
        // Nobody checkpointed in time: do it here, as SQLite's own hook would.
        checkpoints.pages.withLock { $0 = 0 }
        sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        return SQLITE_OK
    }
}
