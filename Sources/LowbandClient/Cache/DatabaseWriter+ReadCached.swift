import GRDB

extension DatabaseWriter {
    /// Reads on the cache's connection without switching it to read-only around the block.
    ///
    /// GRDB's `read` runs `PRAGMA query_only = 1` before the block and `= 0` after it, and SQLite
    /// expires every prepared statement of the connection whenever a flag pragma runs: each read
    /// made all the stores' cached statements compile again on their next use (SQLite's parser
    /// and GRDB's statement authorizer took about a third of the CPU time of a 100-client
    /// virtual-time crowd). On a `DatabaseQueue`, which every engine's cache is, one serial
    /// connection carries all reads and writes, so nothing writes between the statements of a
    /// block: it sees one state, as under `read`. Other writers (a pool) read through `read`.
    ///
    /// Blocks given here only read: unlike `read`, nothing stops a write inside them.
    func readCached<T>(_ value: (Database) throws -> T) throws -> T {
        if let queue = self as? DatabaseQueue {
            return try queue.unsafeRead(value)
        }
        return try read(value)
    }
}
