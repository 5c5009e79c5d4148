import Foundation
public import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The client's SQLite cache on a real file, migrated to the current schema.
///
/// A file that is not a database, is corrupt, cannot be opened, or was written by a newer
/// schema is never deleted: it is moved aside (to `<path>.unreadable-<n>`, with its journal)
/// and the client starts on a fresh cache at `path`. ``recovery`` says what happened, with both
/// paths, so the caller can report it.
public final class CacheDatabase {
    /// Where the engine's stores read and write.
    public let writer: any DatabaseWriter
    /// The file in use.
    public let path: String
    /// Set when the file at `path` was unusable and was moved aside.
    public let recovery: CacheRecovery?
    /// The WAL's checkpoints, run by the engine between turns (``checkpointIfDue()``).
    private let checkpoints: WALCheckpoints
    /// The stores' hot statements on this connection (``HeldStatements``), finalized by
    /// ``close()`` before the connection closes. Only a `DatabaseQueue`'s: a pool reads on
    /// other connections than it writes, and GRDB's statement cache keeps one per connection.
    package let statements: HeldStatements?

    /// Opens (or creates) the cache at `path`, recovering from an unusable file as described.
    ///
    /// - Throws: ``ClientError`` `.database` when even a fresh file cannot be created (the
    ///   directory is missing or read-only), or the file is locked by another process.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws(ClientError) {
        try self.init(path: path, configuration: configuration, writes: .durable)
    }

    /// Opens (or creates) the cache at `path`, written as `writes` says.
    package init(
        path: String, configuration: Configuration = Configuration(), writes: CacheWrites, checkpoints: WALCheckpoints = WALCheckpoints()
    ) throws(ClientError) {
        self.path = path
        self.checkpoints = checkpoints
        // openMigrated opens a DatabaseQueue.
        statements = HeldStatements()
        do {
            writer = try Self.openMigrated(path: path, configuration: configuration, writes: writes, checkpoints: checkpoints)
            recovery = nil
            return
        } catch let unusable as DatabaseError where Self.isUnusable(unusable) && FileManager.default.fileExists(atPath: path) {
            recovery = try Self.recover(path: path, reason: "\(unusable)")
        } catch let tooNew as SchemaTooNew {
            recovery = try Self.recover(path: path, reason: tooNew.description)
        } catch {
            throw ClientError(.database, "cannot open the cache at \(path): \(error)")
        }
        do {
            writer = try Self.openMigrated(path: path, configuration: configuration, writes: writes, checkpoints: checkpoints)
        } catch {
            throw ClientError(.database, "cannot create a fresh cache at \(path) after moving the old one aside: \(error)")
        }
    }

    /// A cache on an existing writer (an in-memory `DatabaseQueue()` in unit tests), migrated.
    public init(writer: any DatabaseWriter) throws(ClientError) {
        self.writer = writer
        self.path = writer.path
        self.recovery = nil
        self.checkpoints = WALCheckpoints()
        statements = writer is DatabaseQueue ? HeldStatements() : nil
        do {
            try CacheSchema.migrator.migrate(writer)
        } catch {
            throw ClientError(.database, "cannot migrate the cache at \(writer.path): \(error)")
        }
    }

    /// True when the WAL has grown past SQLite's automatic checkpoint threshold since the last
    /// checkpoint; ``checkpointIfDue()`` copies it back. Never for a simulated or in-memory cache.
    package var isCheckpointDue: Bool { checkpoints.isDue }

    /// Copies the WAL into the file and syncs it when ``isCheckpointDue``; otherwise does nothing.
    /// Call it on a turn of its own, after the work that grew the log (``WALCheckpoints``).
    ///
    /// - Throws: ``ClientError`` `.database` when the checkpoint fails (the log keeps every commit).
    package func checkpointIfDue() throws(ClientError) {
        guard checkpoints.isDue else { return }
        do {
            try writer.writeWithoutTransaction { db in try checkpoints.checkpoint(db) }
        } catch {
            throw ClientError(.database, "cannot checkpoint the cache at \(path): \(error)")
        }
    }

    /// Closes the file, as the end of the app's process would: with ``CacheWrites/simulated``
    /// the open batch is committed (``CacheBatch``) and another connection can open the file
    /// only after this.
    ///
    /// - Throws: ``ClientError`` `.database` when the batch cannot be committed or a statement
    ///   is still running.
    package func close() throws(ClientError) {
        do {
            try writer.writeWithoutTransaction { db in
                try CacheBatch.commit(db)
                // sqlite3_close fails (busy) while a statement of the connection is not finalized.
                statements?.finalize()
            }
            try writer.close()
        } catch {
            throw ClientError(.database, "cannot close the cache at \(path): \(error)")
        }
    }

    /// A simulated cache released without ``close()`` commits its batch, so its file holds
    /// every write as it would with a commit per write. Nothing can report a failure here; a
    /// closed cache has no batch.
    /// SQLite's own automatic checkpoint comes back, since ``writer`` may outlive this.
    deinit {
        _ = try? writer.writeWithoutTransaction { db in try CacheBatch.commit(db) }
        writer.writeWithoutTransaction { db in WALCheckpoints.uninstall(from: db) }
    }

    private struct SchemaTooNew: Error, CustomStringConvertible {
        var path: String
        var description: String { "the cache at \(path) was written by a newer version of the schema" }
    }

    /// Opens the file and brings its schema up to date.
    ///
    /// Opening already reads the schema (GRDB checks the file is a database before returning),
    /// so a non-database fails in the initializer. An up-to-date file, every launch but the
    /// first after an upgrade, then costs one statement: the applied migrations, read outside
    /// any transaction. The migrator (its own table check and transactions) runs only when a
    /// migration is missing.
    ///
    /// The file is in WAL mode: a commit appends to the log instead of rewriting pages and
    /// syncing the main file, which took a pushed message's store from 2–30 ms to about 0.2 ms
    /// on disk (measured by the push-to-visible benchmark). Commits survive the app being killed; a
    /// power loss may roll back the last ones (``CacheWrites/durable``). An in-memory
    /// database (`:memory:` or an empty path) has no log to write and keeps SQLite's default.
    /// ``CacheWrites/simulated`` keeps the journal in memory, never syncs and holds the file's
    /// lock from the first read until ``close()`` instead, and opens the ``CacheBatch`` its
    /// writes go into; a path with no file yet starts as a copy of a migrated file
    /// (``SimulatedCacheTemplate``), not by running the migrations.
    ///
    /// WAL is set up by the two pragmas of GRDB's `journalMode = .wal`, not by that setting:
    /// it also writes an empty transaction (a table created and dropped) whenever the log file
    /// is missing or empty, for a `DatabasePool`'s readers, which a queue does not have. The log
    /// is deleted when the file closes, so that write ran at every launch: with the schema change
    /// it forces, about two thirds of a cold start to the first screen (issue 13). The `-wal` and
    /// `-shm` files are also kept between launches, the log emptied when the file closes
    /// (``keepLogFiles(_:)``), so a launch does not create two files again.
    private static func openMigrated(path: String, configuration: Configuration, writes: CacheWrites, checkpoints: WALCheckpoints) throws -> DatabaseQueue {
        var configuration = configuration
        if !path.isEmpty, path != ":memory:", !path.hasPrefix("file::memory:") {
            switch writes {
            case .durable:
                configuration.prepareDatabase { db in
                    try keepLogFiles(db)
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    guard mode == "wal" else {
                        throw DatabaseError(message: "cannot switch the cache to WAL mode: SQLite kept journal mode \(mode ?? "nil")")
                    }
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            case .simulated:
                // The batch stays open between accesses (CacheBatch).
                configuration.allowsUnsafeTransactions = true
                configuration.prepareDatabase { db in try prepareSimulated(db) }
                // A new cache starts as a copy of a migrated one (SimulatedCacheTemplate).
                _ = SimulatedCacheTemplate.copy(to: path)
            }
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = CacheSchema.migrator
        let applied = try queue.inDatabase { db in try migrator.appliedIdentifiers(db) }
        let known = migrator.migrations
        if applied.contains(where: { !known.contains($0) }) { throw SchemaTooNew(path: path) }
        if known.contains(where: { !applied.contains($0) }) {
            try migrator.migrate(queue)
        }
        if writes == .simulated {
            try queue.writeWithoutTransaction { db in try CacheBatch.begin(db) }
        } else {
            queue.inDatabase { db in checkpoints.install(on: db) }
        }
        return queue
    }

    /// A ``CacheWrites/simulated`` connection's pragmas, run as it opens.
    ///
    /// Each write's savepoint copies every page it first touches into the journal: 1 KiB pages
    /// instead of 4 KiB took the crowd hour's user time from 3.54-3.72 s to 3.25-3.33 s
    /// (docs/RUN.md). The page size is set before the file's first table; a file made with
    /// other pages keeps them.
    static func prepareSimulated(_ db: Database) throws {
        try db.execute(sql: "PRAGMA page_size = 1024")
        try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
        try db.execute(sql: "PRAGMA journal_mode = MEMORY")
        try db.execute(sql: "PRAGMA synchronous = OFF")
    }

    /// Keeps the `-wal` and `-shm` files when the connection closes (`SQLITE_FCNTL_PERSIST_WAL`),
    /// the log truncated to zero bytes: a kept log that still held frames would be read back
    /// whole at the next open, since the index in `-shm` is rebuilt then. `journal_size_limit`
    /// is what makes SQLite truncate at close; 4 MiB is about the log at SQLite's automatic
    /// checkpoint (1,000 pages), so while the file is open the log is rarely trimmed.
    private static func keepLogFiles(_ db: Database) throws {
        var persist: CInt = 1
        let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot keep the cache's WAL file between launches")
        }
        try db.execute(sql: "PRAGMA journal_size_limit = \(4 * 1024 * 1024)")
    }

    /// Errors that mean the file itself is bad, as opposed to busy or locked by someone else.
    private static func isUnusable(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_FORMAT:
            true
        default:
            false
        }
    }

    private static func recover(path: String, reason: String) throws(ClientError) -> CacheRecovery {
        do {
            return CacheRecovery(path: path, movedTo: try moveAside(path), reason: reason)
        } catch {
            throw ClientError(.database, "the cache at \(path) is unusable (\(reason)) and cannot be moved aside (\(error)); move or delete it by hand")
        }
    }

    /// Moves `path` and its journal files to the first free `<path>.unreadable-<n>`.
    private static func moveAside(_ path: String) throws -> String {
        let files = FileManager.default
        var number = 1
        while files.fileExists(atPath: "\(path).unreadable-\(number)") { number += 1 }
        let destination = "\(path).unreadable-\(number)"
        try files.moveItem(atPath: path, toPath: destination)
        for suffix in ["-journal", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
            try files.moveItem(atPath: path + suffix, toPath: destination + suffix)
        }
        return destination
    }
}

/// What happened when the cache file was unusable at start.
public struct CacheRecovery: Hashable, Sendable, CustomStringConvertible {
    /// The file that could not be used, where a fresh cache now lives.
    public var path: String
    /// Where the unusable file was moved, untouched.
    public var movedTo: String
    /// What SQLite (or the schema check) said about it.
    public var reason: String

    public var description: String {
        "the cache at \(path) was unusable (\(reason)); it was moved to \(movedTo) and a fresh cache was started"
    }
}
