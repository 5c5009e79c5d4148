/// How a client's cache file is written.
package enum CacheWrites: Hashable, Sendable {
    /// WAL with `synchronous = NORMAL`: a commit survives the app's crash or kill; after a power
    /// loss or an OS crash the last commits before it may roll back (SQLite syncs the log at
    /// checkpoints, not at every commit), and the file stays consistent. The product's mode.
    case durable
    /// The rollback journal in memory, no syncs, and the file's lock taken at the first read and
    /// held until ``CacheDatabase/close()``: one file descriptor per cache, no journal or log
    /// writes, no lock calls per transaction. Another connection to the file fails (busy) while
    /// it is open, so a killed app's cache is closed before its cold start. For virtual-time
    /// runs only, where the process never dies inside a transaction (an app kill is simulated
    /// between scheduler turns) and nothing has to survive the machine. Writes go into one open
    /// transaction (``CacheBatch``), committed every few hundred changed rows and at
    /// ``CacheDatabase/close()``: nothing reads the file while it is open, so the cold start
    /// after close reads every write, as with `.durable`.
    case simulated
}
