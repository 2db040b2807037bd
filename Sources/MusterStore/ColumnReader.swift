import Foundation
import GRDB
import GRDBSQLite
public import MusterRules

/// The columns of the row a statement has stepped onto, read by index straight through SQLite's C API.
///
/// For the reads made once per author run: during a burst every peer's check-in is a run of its own
/// and first reads its author's record (``AuthorRecord/fetch(_:policy:db:hot:)``). Through GRDB's
/// `Row` (a copy of every column, then each found by name) that read was 89,000 instructions a run,
/// a tenth of an interleaved delta (callgrind, BENCHMARKS.md). See ``Database/readFirst(_:bind:read:)``.
struct ColumnReader {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    /// A blob's bytes, copied (an empty blob is empty, not nil).
    func bytes(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        // The pointer first, then the size: SQLite's documented order when a value may be converted.
        let base = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let base, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let base = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}

extension Database {
    /// Runs `statement` with the values `bind` binds in order and reads the first row it returns
    /// with `read`; nil when it returns none. SQLite errors are thrown as `DatabaseError`, as
    /// ``run(_:bind:)`` throws them.
    func readFirst<T>(
        _ statement: Statement,
        bind: (inout BoundStatement) -> Void,
        read: (ColumnReader) throws -> T
    ) throws -> T? {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        var bound = BoundStatement(handle: handle)
        bind(&bound)
        var rc = bound.failure
        if rc == 0 {
            rc = sqlite3_step(handle)
            if rc == SQLITE_ROW { return try read(ColumnReader(handle: handle)) }
            if rc == SQLITE_DONE { return nil }
        }
        let message = sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: statement.sql)
    }
}
