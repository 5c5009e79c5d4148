/// How a client's cache file is written.
package enum CacheWrites: Hashable, Sendable {
    /// WAL, synced as SQLite does by default: a commit survives the app's crash and the
    /// phone's power loss. The product's mode.
    case durable
    /// The rollback journal in memory and no syncs: one file descriptor per cache and no
    /// journal or log writes. For virtual-time runs only, where the process never dies inside a
    /// transaction (an app kill is simulated between scheduler turns) and nothing has to
    /// survive the machine: every commit is in the file when it returns, as with `.durable`,
    /// so a killed app's cold start reads what its last commit left.
    case simulated
}
