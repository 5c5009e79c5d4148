import Foundation
import GRDB
import LowbandClient
import LowbandTestSupport
import Testing

@Suite struct CacheDatabaseTests {
    @Test func createsAndMigratesAFileAndReopensIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do {
            let database = try CacheDatabase(path: path)
            #expect(database.recovery == nil)
            try database.writer.write { db in try db.execute(sql: "UPDATE syncState SET lastSync = 42") }
        }
        let again = try CacheDatabase(path: path)
        #expect(again.recovery == nil)
        #expect(try SyncStore(writer: again.writer).lastSync() == 42)
        let tables = try again.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name")
        }
        #expect(tables == ["chat", "contact", "historyChunk", "message", "outboxBlob", "outboxTask", "readReceipt", "settings", "syncState"])
    }

    /// A launch on an up-to-date cache writes nothing: GRDB's `journalMode = .wal` created and
    /// dropped a table at every open (its log file is deleted at close), which was about two
    /// thirds of a cold start to the first screen (issue 13).
    @Test func reopeningAnUpToDateCacheWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        try CacheDatabase(path: path).close()
        let before = try Self.schemaVersion(at: path)
        let again = try CacheDatabase(path: path)
        #expect(try again.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try again.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1, "NORMAL, as in WAL mode before")
        try again.close()
        #expect(try Self.schemaVersion(at: path) == before)
    }

    /// The log and its index stay for the next launch, the log empty: a launch creates no files
    /// and reads no stale log.
    @Test func theLogFilesStayBetweenLaunchesTheLogEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path)
        try database.writer.write { db in try db.execute(sql: "UPDATE syncState SET lastSync = 42") }
        #expect(try Self.size(of: path + "-wal") > 0)
        try database.close()
        #expect(try Self.size(of: path + "-wal") == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        let again = try CacheDatabase(path: path)
        #expect(try SyncStore(writer: again.writer).lastSync() == 42)
    }

    /// The commit that takes the log past the checkpoint threshold no longer checkpoints (and
    /// syncs twice) inside itself, before a pushed row can be shown: the checkpoint is due, and
    /// `checkpointIfDue()` copies the whole log into the file on the engine's next turn.
    @Test func aLongLogIsCheckpointedWhenAskedNotInsideTheCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, writes: .durable, checkpoints: WALCheckpoints(threshold: 8, limit: 1000))
        var commits = 0
        while !database.isCheckpointDue, commits < 100 {
            commits += 1
            try Self.insertMessage(commits, into: database)
        }
        #expect(database.isCheckpointDue)
        #expect(try Self.size(of: path + "-wal") >= 8 * 4096, "every commit still in the log")
        let logged = try Self.size(of: path + "-wal")
        try database.checkpointIfDue()
        #expect(!database.isCheckpointDue)
        // Everything copied, the next commit starts the log over instead of appending to it.
        try Self.insertMessage(commits + 1, into: database)
        #expect(try Self.size(of: path + "-wal") == logged)
        #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM message") } == commits + 1)
    }

    /// A log nobody checkpoints stops growing at the limit, where the commit checkpoints itself
    /// as SQLite's automatic checkpoint does.
    @Test func aLogNobodyCheckpointsStopsAtTheLimit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, writes: .durable, checkpoints: WALCheckpoints(threshold: 4, limit: 12))
        for number in 1...200 {
            try Self.insertMessage(number, into: database)
        }
        let logSize = try Self.size(of: path + "-wal")
        // The migration's commit (about 24 pages) is the longest the log gets; 200 commits without
        // a checkpoint would have logged over 400 pages.
        #expect(logSize <= 32 * (4096 + 24), "the log restarted after each checkpoint at the limit: \(logSize) bytes")
        #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM message") } == 200)
    }

    private static func insertMessage(_ number: Int, into database: CacheDatabase) throws {
        try database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO message (chatID, id, senderID, text, sentAt) VALUES (1, ?, 2, ?, 0)",
                arguments: [number, String(repeating: "x", count: 2000)])
        }
    }

    private static func size(of path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }

    /// The schema cookie, which every table created or dropped changes.
    private static func schemaVersion(at path: String) throws -> Int? {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideNotDeleted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let garbage = Data((0 ..< 4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let database = try CacheDatabase(path: path)
        let recovery = try #require(database.recovery)
        #expect(recovery.path == path)
        #expect(recovery.movedTo == path + ".unreadable-1")
        #expect(recovery.description.contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: recovery.movedTo)) == garbage, "the old file is kept byte for byte")
        #expect(try SyncStore(writer: database.writer).lastSync() == 0, "a fresh cache")
    }

    @Test func aCorruptDatabaseIsMovedAsideAndASecondOneGetsTheNextName() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        for round in 1 ... 2 {
            do {
                let database = try CacheDatabase(path: path)
                try database.writer.write { db in
                    for index in 0 ..< 200 {
                        try db.execute(sql: "INSERT INTO contact (id, name, phone, updatedAt) VALUES (?, ?, '', 0)", arguments: [index, String(repeating: "x", count: 300)])
                    }
                }
            }
            // Overwrite the schema page with noise, keeping the header: "database disk image is malformed".
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 100)
            try handle.write(contentsOf: Data(repeating: 0xA5, count: 3_000))
            try handle.close()
            let recovered = try CacheDatabase(path: path)
            #expect(recovered.recovery?.movedTo == "\(path).unreadable-\(round)", "round \(round): \(String(describing: recovered.recovery))")
            #expect(try SyncStore(writer: recovered.writer).contacts().isEmpty)
        }
        // Each file's kept log files (-wal, -shm) move aside with it.
        #expect(try directory.contents() == [
            "cache.sqlite", "cache.sqlite-shm", "cache.sqlite-wal",
            "cache.sqlite.unreadable-1", "cache.sqlite.unreadable-1-shm", "cache.sqlite.unreadable-1-wal",
            "cache.sqlite.unreadable-2", "cache.sqlite.unreadable-2-shm", "cache.sqlite.unreadable-2-wal",
        ])
    }

    @Test func aDirectoryInThePlaceOfTheFileIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let database = try CacheDatabase(path: path)
        #expect(database.recovery?.movedTo == path + ".unreadable-1")
    }

    @Test func aMissingDirectoryIsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/cache.sqlite")
        #expect {
            _ = try CacheDatabase(path: path)
        } throws: { error in
            (error as? ClientError)?.code == .database && "\(error)".contains(path)
        }
    }

    @Test func aDatabaseFromANewerSchemaIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do {
            let database = try CacheDatabase(path: path)
            try database.writer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        }
        let database = try CacheDatabase(path: path)
        #expect(database.recovery?.reason.contains("newer") == true)
    }
}
