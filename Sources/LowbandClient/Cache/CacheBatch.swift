import GRDB
import GRDBSQLite

/// The one transaction a ``CacheWrites/simulated`` cache keeps open between its writes.
///
/// Each of the stores' writes is a savepoint inside it (atomic, as a transaction of its own
/// would be), and the batch commits once about ``rowLimit`` rows changed and when the cache
/// closes: a commit per write (BEGIN, COMMIT and the changed pages written to the file) was
/// 9 % of the 100-client virtual-time crowd hour (docs/RUN.md). Nothing reads the file while
/// the cache holds it open (its lock is exclusive), so what a cold start reads after
/// ``CacheDatabase/close()`` is the same as with a commit per write. The open batch holds
/// about 30 kB a cache more (measured on a 2,000-client crowd).
package enum CacheBatch {
    /// Rows changed before the batch commits: bounds the memory the open transaction holds
    /// (the journal and the changed pages) to about this many rows' pages.
    package static let rowLimit = 256

    /// Opens the batch on a connection outside any transaction.
    static func begin(_ db: Database) throws {
        try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
    }

    /// Commits the batch when one is open.
    static func commit(_ db: Database) throws {
        guard db.isInsideTransaction else { return }
        try db.execute(sql: "COMMIT TRANSACTION")
    }

    /// Runs `updates` in a savepoint of the open batch: released when it returns, rolled back
    /// (the batch as before it) when it throws. Commits the batch and opens the next one when
    /// the block took the changed rows over a multiple of ``rowLimit``. The savepoint's
    /// statements come from `statements` (held per connection, or GRDB's cache).
    static func savepoint<T>(_ db: Database, _ statements: HeldStatements?, _ updates: (Database) throws -> T) throws -> T {
        // `db.totalChangesCount` without GRDB's queue check: this runs on the queue's connection.
        let before = sqlite3_total_changes(db.sqliteConnection)
        try statements.statement(.savepoint, db).run()
        let value: T
        do {
            value = try updates(db)
        } catch {
            try statements.statement(.rollbackToSavepoint, db).run()
            try statements.statement(.releaseSavepoint, db).run()
            throw error
        }
        try statements.statement(.releaseSavepoint, db).run()
        if sqlite3_total_changes(db.sqliteConnection) / Int32(rowLimit) != before / Int32(rowLimit) {
            try commit(db)
            try begin(db)
        }
        return value
    }

    /// `DatabaseWriter.writeCached(_:)` lost its block's value (never expected).
    struct NoValue: Error, CustomStringConvertible {
        var description: String { "a cache write returned no value" }
    }
}
