import Foundation
import GRDB
package import LowbandFixtures
package import LowbandServer

/// `lowband server --data DIR`: the server's data in a directory, so a restart — after a stop
/// or a `kill -9` — continues where the last run left off.
///
/// The directory holds `server.sqlite` (users, chats, members, messages, uploads; WAL mode,
/// `synchronous = FULL`), `uploads/<number>.part` (upload bytes) and `server.lock` (held while
/// a server runs). See docs/SERVER.md for the tables.
///
/// ```swift
/// let data = try ServerDataDirectory.open("/var/lib/lowband", world: MessengerWorld(seed: 7), configuration: ServerConfiguration())
/// let server = try await MessengerSocketServer.start(core: data.core)
/// ```
package struct ServerDataDirectory: Sendable {
    /// The directory.
    package let path: String
    /// A core on the directory's data, storing every change there before answering.
    package let core: ServerCore
    /// True when the directory was empty and has just been seeded with the world's data.
    package let seeded: Bool
    /// What was repaired on opening (uploads cut back to their acknowledged offset or dropped),
    /// one line each, for the log.
    package let notes: [String]

    /// The SQLite file in `directory`.
    package static func databasePath(in directory: String) -> String { directory + "/server.sqlite" }

    /// Opens the data in `directory` (created when missing): seeds it with `world`'s data when
    /// empty, otherwise reads it back (the directory remembers the world's seed and shape, and
    /// refuses another).
    ///
    /// - Throws: `LowbandServer/ServerStoreError` `.mismatch` when the directory was seeded
    ///   with another seed or shape (the message names the options that match it), `.io` when
    ///   it cannot be created or another server holds it, `.unreadable` when the file is not
    ///   data a server wrote or has a newer schema. Nothing is ever deleted or moved aside.
    package static func open(_ directory: String, world: MessengerWorld, configuration: ServerConfiguration) throws(ServerStoreError) -> ServerDataDirectory {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ServerStoreError(.io, "cannot create the data directory \(directory): \(error.localizedDescription)")
        }
        let lock = try DirectoryLock(directory: directory)
        let writer = try ServerDatabase.open(path: databasePath(in: directory), readOnly: false)
        let wanted = StoredSeed(seed: world.seed, shape: world.shape, epoch: configuration.epoch)
        let (snapshot, seeded) = try read(writer, wanted: wanted, world: world, configuration: configuration, directory: directory)
        var storage = try FileUploadStorage(directory: directory + "/uploads", syncs: true)
        let store = SQLiteServerStore(writer: writer, lock: lock)
        let (checked, notes) = try UploadReconciler.reconcile(snapshot, storage: &storage, store: store)
        let core = ServerCore(configuration: configuration, snapshot: checked, store: store, uploadStorage: storage)
        return ServerDataDirectory(path: directory, core: core, seeded: seeded, notes: notes)
    }

    private static func read(
        _ writer: any DatabaseWriter, wanted: StoredSeed, world: MessengerWorld, configuration: ServerConfiguration, directory: String
    ) throws(ServerStoreError) -> (ServerSnapshot, seeded: Bool) {
        do {
            return try writer.write { db throws -> (ServerSnapshot, Bool) in
                guard let stored = try ServerDataLoader.storedSeed(db) else {
                    let snapshot = ServerSnapshot(world: world, epoch: configuration.epoch)
                    try ServerDataLoader.seed(snapshot, from: wanted, in: db)
                    return (snapshot, true)
                }
                guard stored == wanted else {
                    throw ServerStoreError(
                        .mismatch,
                        "the data directory \(directory) holds the data of \(stored.options)\(stored.epoch == wanted.epoch ? "" : " (epoch \(stored.epoch))"); start with those options, or use an empty --data directory for \(wanted.options)"
                    )
                }
                return (try ServerDataLoader.load(db, path: writer.path, limits: configuration.limits), false)
            }
        } catch let error as ServerStoreError {
            throw error
        } catch {
            throw ServerStoreError(.unreadable, "cannot read the server data in \(writer.path): \(error)")
        }
    }
}
