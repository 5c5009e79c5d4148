#ifndef CLOWBAND_SQLITE_SETTINGS_H
#define CLOWBAND_SQLITE_SETTINGS_H

/// Turns SQLite's process-wide memory statistics off (`sqlite3_config(SQLITE_CONFIG_MEMSTATUS,
/// 0)`), which `lowband run` and `explore` do before their first database opens: with them on
/// (the default) every SQLite allocation takes one process-wide mutex, which two seeds running
/// at once contend on. Only before SQLite initializes: afterwards it returns SQLITE_MISUSE (21)
/// and changes nothing. SQLITE_OK (0) when it took effect.
int lowband_sqlite_memory_statistics_off(void);

#endif
