import Foundation
import GRDB
import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// A new simulated cache starts as a copy of a migrated file instead of running the
/// migrations: the copy must be the file migration makes, and work as one.
@Suite struct SimulatedCacheTemplateTests {
    @Test func aNewSimulatedCacheIsTheFileMigrationMakes() throws {
        let directory = try TemporaryDirectory()
        let copied = directory.file("copied.sqlite")
        try CacheDatabase(path: copied, writes: .simulated).close()

        // The same pragmas as a simulated cache, then every migration (`init(writer:)`).
        let migrated = directory.file("migrated.sqlite")
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 1024")
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        let queue = try DatabaseQueue(path: migrated, configuration: configuration)
        do { _ = try CacheDatabase(writer: queue) }
        try queue.close()

        let copiedBytes = try Data(contentsOf: URL(fileURLWithPath: copied))
        let migratedBytes = try Data(contentsOf: URL(fileURLWithPath: migrated))
        #expect(copiedBytes.count == migratedBytes.count)
        #expect(copiedBytes == migratedBytes)
    }

    @Test func aCopiedCacheStoresAndReadsBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, writes: .simulated)
        #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 1024)
        #expect(try database.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") } == ["v1", "v2"])
        let store = MessageStore(writer: database.writer)
        try store.applyLive(Message(id: 7, chatID: 1, senderID: 2, text: "m7", sentAt: 7))
        #expect(try store.allMessages(chatID: 1).map(\.text) == ["m7"])
        try database.close()
        #expect(try MessageStore(writer: CacheDatabase(path: path, writes: .simulated).writer).allMessages(chatID: 1).map(\.id) == [7])
    }
}
