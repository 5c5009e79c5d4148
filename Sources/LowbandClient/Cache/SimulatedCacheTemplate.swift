import Foundation
import GRDB

/// A ``CacheWrites/simulated`` cache's file as migration leaves it, made once a process and
/// copied to each new cache's path before it opens.
///
/// Migrating a fresh file runs every statement of ``CacheSchema`` and, at each `CREATE` and
/// `ALTER`, makes SQLite parse the whole schema again: 11 % of the CPU of `lowband explore`
/// over 100 seeds (five new caches a seed, each a few minutes of simulated time). Copying the
/// migrated bytes instead leaves SQLite one parse of the schema, at the first statement.
///
/// The template is made by the same code as any simulated cache (the same pragmas, then
/// ``CacheSchema/migrator``), and SQLite writes the same bytes for the same statements, so a
/// copied file is the file migration would have made. Only a path with no file yet gets the
/// copy: an existing file (a cold start after a simulated kill) opens as before.
enum SimulatedCacheTemplate {
    /// The migrated file's bytes; nil when no template could be made (the temporary directory
    /// is not writable), and every new cache is migrated as before.
    private static let bytes: Data? = make()

    /// Writes the template at `path` when no file is there; false when it did not (a file is
    /// there, no template, or the write failed: the caller opens and migrates as without it).
    static func copy(to path: String) -> Bool {
        guard let bytes else { return false }
        do {
            try bytes.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            return true
        } catch {
            return false
        }
    }

    /// Opens a fresh simulated cache in the temporary directory, migrates it, closes it and
    /// reads it back.
    private static func make() -> Data? {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("lowband-cache-template-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in try CacheDatabase.prepareSimulated(db) }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try CacheSchema.migrator.migrate(queue)
            try queue.close()
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return nil
        }
    }
}
