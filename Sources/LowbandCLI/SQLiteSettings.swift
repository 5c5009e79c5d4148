import CLowbandSQLiteSettings

/// SQLite's process-wide settings, made once, before the command opens its first database.
///
/// Memory statistics off: with them on (Debian's libsqlite3 default, built without lookaside),
/// every SQLite allocation takes one process-wide mutex, and `explore`'s seeds running at once
/// contend on it. Nothing reads the statistics (no heap limit is set, `sqlite3_memory_used` is
/// never asked), so no result changes.
enum SQLiteSettings {
    /// Applies the settings the first time; true when SQLite took them (false when a database
    /// was opened before, which leaves SQLite as it was).
    @discardableResult
    static func apply() -> Bool { applied }

    private static let applied = lowband_sqlite_memory_statistics_off() == 0
}
