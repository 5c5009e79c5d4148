import GRDB
import GRDBSQLite

/// A value bound to a statement run through ``GRDB/Statement/run(_:)``.
enum StepValue {
    case integer(Int64)
    case text(String)
    case null

    init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
}

/// The cache's hot statements through SQLite's C API, on GRDB's cached statements.
///
/// GRDB's `execute(arguments:)` and `Row.fetchOne` cost more than SQLite's own work for the
/// one-row statements a live message takes (argument validation and boxing, the statement
/// hooks, a copied row with its column names): 27 % of the 100-client virtual-time crowd hour
/// against SQLite's 20 %. These bind by position, step and read columns by index.
/// Use them only inside a write or read block on the statement's connection, on statements
/// that do not start or end a transaction GRDB tracks (savepoints of ``CacheBatch`` aside,
/// which GRDB has no observer of).
extension Statement {
    /// Binds `values` by position and steps to the end, like `execute(arguments:)`.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when a step fails.
    func run(_ values: StepValue...) throws {
        try CacheStatement(statement: self, isReset: false).run(values)
    }

    /// Binds `values` by position, steps once and reads the first row with `read` (columns by
    /// index, ``StepRow``); nil when there is no row.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when the step fails.
    func firstRow<T>(_ values: StepValue..., read: (StepRow) throws -> T) throws -> T? {
        try CacheStatement(statement: self, isReset: false).firstRow(values, read: read)
    }

    /// Binds `values` by position and calls `read` for every row, in order.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when a step fails.
    func forEachRow(_ values: StepValue..., read: (StepRow) throws -> Void) throws {
        try CacheStatement(statement: self, isReset: false).forEachRow(values, read: read)
    }
}

/// A statement run as ``GRDB/Statement/run(_:)`` runs it, left reset after every use.
///
/// `isReset` says the statement is known to be reset (a ``HeldStatements`` statement, which
/// only this type steps): it is bound without another `sqlite3_reset` first. A statement GRDB
/// may have stepped (its cache's, which GRDB resets before a use, not after) is reset first.
struct CacheStatement {
    /// Not retained: whoever hands the statement out keeps it for the block it is used in (the
    /// holder's slot, GRDB's cache, or the caller of ``GRDB/Statement/run(_:)``); a retain and
    /// release a statement were 1 % of the crowd hour.
    unowned(unsafe) let statement: Statement
    /// The statement's SQLite handle.
    let handle: OpaquePointer
    let isReset: Bool

    init(statement: Statement, isReset: Bool) {
        self.statement = statement
        self.handle = statement.sqliteStatement
        self.isReset = isReset
    }

    /// Binds `values` by position and steps to the end.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when a step fails.
    func run(_ values: StepValue...) throws {
        try run(values)
    }

    func run(_ values: [StepValue]) throws {
        try bindAll(values)
        defer { sqlite3_reset(handle) }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE: return
            case SQLITE_ROW: continue
            case let code: throw failure(code)
            }
        }
    }

    /// Binds `values` by position, steps once and reads the first row with `read`; nil when
    /// there is no row.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when the step fails.
    func firstRow<T>(_ values: StepValue..., read: (StepRow) throws -> T) throws -> T? {
        try firstRow(values, read: read)
    }

    func firstRow<T>(_ values: [StepValue], read: (StepRow) throws -> T) throws -> T? {
        try bindAll(values)
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_DONE: return nil
        case SQLITE_ROW: return try read(StepRow(statement: handle))
        case let code: throw failure(code)
        }
    }

    /// Binds `values` by position and calls `read` for every row, in order.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message when a step fails.
    func forEachRow(_ values: StepValue..., read: (StepRow) throws -> Void) throws {
        try forEachRow(values, read: read)
    }

    func forEachRow(_ values: [StepValue], read: (StepRow) throws -> Void) throws {
        try bindAll(values)
        defer { sqlite3_reset(handle) }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE: return
            case SQLITE_ROW: try read(StepRow(statement: handle))
            case let code: throw failure(code)
            }
        }
    }

    private func bindAll(_ values: [StepValue]) throws {
        if !isReset { sqlite3_reset(handle) }
        guard Int(sqlite3_bind_parameter_count(handle)) == values.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters", sql: statement.sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .text(let text):
                // As GRDB binds a String: a C string (it ends at a NUL), SQLITE_TRANSIENT.
                code = sqlite3_bind_text(handle, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .null:
                code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        let message = sqlite3_db_handle(handle).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }
}

/// The current row of a statement stepped by ``GRDB/Statement/firstRow(_:read:)``, read by
/// column index; valid only inside the `read` block.
struct StepRow {
    fileprivate let statement: OpaquePointer

    /// Column `index` as an integer; nil when it is NULL.
    func integer(_ index: Int32) -> Int64? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, index)
    }

    /// Column `index` as text, read as GRDB reads a String (a C string); nil when it is NULL.
    func text(_ index: Int32) -> String? {
        sqlite3_column_text(statement, index).map { String(cString: $0) }
    }
}
