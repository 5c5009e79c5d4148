package import GRDB
import GRDBSQLite

extension DatabaseWriter {
    /// Writes `updates` atomically, on whatever transaction the cache keeps: a transaction of
    /// its own (``CacheWrites/durable``), or a savepoint of the open batch (``CacheWrites/simulated``).
    ///
    /// Either way, the block's changes are all kept, or all undone when it throws, and every
    /// later read on the connection sees them. A simulated cache's batch reaches the file when
    /// it commits: once about ``CacheBatch/rowLimit`` rows changed, and at
    /// ``CacheDatabase/close()``. Writers other than a `DatabaseQueue` (a pool) use `write`.
    ///
    /// Inside a batch, `write` (GRDB's own transaction) fails: the cache's writes go through here.
    /// The savepoint's statements come from `statements` (``CacheDatabase/statements`` for the
    /// engine's stores; by default GRDB's statement cache).
    package func writeCached<T>(_ statements: HeldStatements? = nil, _ updates: (Database) throws -> T) throws -> T {
        guard let queue = self as? DatabaseQueue else { return try write(updates) }
        return try queue.writeWithoutTransaction { db in
            // `db.isInsideTransaction` without GRDB's queue check (a dispatch lookup a call):
            // this block runs on the queue's connection.
            if let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) == 0 {
                return try CacheBatch.savepoint(db, statements, updates)
            }
            var value: T?
            try db.inTransaction {
                value = try updates(db)
                return .commit
            }
            guard let value else { throw CacheBatch.NoValue() }
            return value
        }
    }
}
