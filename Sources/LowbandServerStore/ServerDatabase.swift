import GRDB
import LowbandServer

/// Opens the server's SQLite file: WAL, `synchronous = FULL`, migrated to the current schema.
///
/// In WAL mode a commit appends to the log and, with `synchronous = FULL`, syncs it before
/// returning: an acknowledged change survives a `kill -9` of the server (which `NORMAL` would
/// also give: the log write is in the kernel once `write` returns) and a power cut or kernel
/// crash too (which `NORMAL` would not). docs/SERVER.md has the measured cost.
enum ServerDatabase {
    static func open(path: String, readOnly: Bool) throws(ServerStoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(5)
        if !readOnly {
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw ServerStoreError(readOnly ? .io : .unreadable, "cannot open the server data \(path): \(error)")
        }
        let migrator = ServerSchema.migrator
        let applied: [String]
        do {
            applied = try queue.read { db in try migrator.appliedIdentifiers(db) }.sorted()
        } catch {
            throw ServerStoreError(.unreadable, "\(path) is not server data: \(error)")
        }
        let known = migrator.migrations
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw ServerStoreError(.unreadable, "\(path) was written by a newer lowband (schema migration '\(unknown)'): use that version")
        }
        guard known.contains(where: { !applied.contains($0) }) else { return queue }
        guard !readOnly else {
            throw ServerStoreError(.unreadable, "\(path) is not server data (no schema), or its schema is older: start a server on it once")
        }
        do {
            try migrator.migrate(queue)
        } catch {
            throw ServerStoreError(.unreadable, "cannot bring \(path) to the current schema: \(error)")
        }
        return queue
    }
}
