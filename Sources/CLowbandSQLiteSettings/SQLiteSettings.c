#include <sqlite3.h>

#include "CLowbandSQLiteSettings.h"

// A C function because sqlite3_config is variadic, which Swift cannot call.
int lowband_sqlite_memory_statistics_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
