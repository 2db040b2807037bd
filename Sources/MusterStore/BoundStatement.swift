import CMusterSQLite
import Foundation
import GRDB

/// Values bound in order to a prepared write statement, straight through SQLite's C API.
///
/// Catching up on 100,000 deltas runs the same four statements 100,000 times each; building GRDB's
/// `StatementArguments` (an array of existentials) and validating it cost about a third of the
/// instructions of an ingest (callgrind, BENCHMARKS.md). The statement itself is still prepared
/// and cached by GRDB; only the binding and stepping are done here. See ``Database/run(_:bind:)``.
struct BoundStatement {
    private let handle: UnsafeMutableRawPointer
    private var index: Int32 = 0
    /// The result code of the first bind that failed, or 0.
    private(set) var failure: Int32 = 0

    fileprivate init(handle: UnsafeMutableRawPointer) { self.handle = handle }

    private mutating func next(_ bind: (UnsafeMutableRawPointer, Int32) -> Int32) {
        index += 1
        let rc = bind(handle, index)
        if rc != 0 && failure == 0 { failure = rc }
    }

    mutating func int(_ value: Int64) { next { muster_stmt_bind_int64($0, $1, value) } }

    mutating func int(_ value: Int64?) {
        if let value { int(value) } else { null() }
    }

    mutating func bool(_ value: Bool) { int(value ? 1 : 0) }

    mutating func null() { next { muster_stmt_bind_null($0, $1) } }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            next { handle, index in
                utf8.withMemoryRebound(to: CChar.self) {
                    muster_stmt_bind_text(handle, index, $0.baseAddress, Int32($0.count))
                }
            }
        }
    }

    mutating func text(_ value: String?) {
        if let value { text(value) } else { null() }
    }

    mutating func blob(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in next { muster_stmt_bind_blob($0, $1, raw.baseAddress, Int32(raw.count)) } }
    }

    mutating func blob(_ bytes: Data) {
        bytes.withUnsafeBytes { raw in next { muster_stmt_bind_blob($0, $1, raw.baseAddress, Int32(raw.count)) } }
    }
}

extension Database {
    /// Executes a statement that is prepared once per connection and then reused (GRDB's statement
    /// cache, keyed by the SQL text). The replica's write paths run the same few statements for
    /// every delta; compiling them each time cost more than running them.
    func run(_ sql: String, _ arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// The same, binding the values in order with `bind` instead of an argument array (for the
    /// statements run once per delta: see ``BoundStatement``). SQLite errors are thrown as
    /// `DatabaseError` with their result code, as GRDB would (a full disk stays `SQLITE_FULL`).
    func run(_ sql: String, bind: (inout BoundStatement) -> Void) throws {
        try run(cachedStatement(sql: sql), bind: bind)
    }

    /// The same with a statement the caller prepared and keeps (see ``HotStatements``).
    func run(_ statement: Statement, bind: (inout BoundStatement) -> Void) throws {
        let handle = UnsafeMutableRawPointer(statement.sqliteStatement)
        _ = muster_stmt_reset(handle)
        var bound = BoundStatement(handle: handle)
        bind(&bound)
        var rc = bound.failure
        if rc == 0 {
            rc = muster_stmt_step(handle)
            if rc == 101 { rc = 0 }  // SQLITE_DONE
        }
        guard rc != 0 else {
            _ = muster_stmt_reset(handle)
            return
        }
        let message = sqliteConnection.map { String(cString: muster_db_errmsg(UnsafeMutableRawPointer($0))) }
        _ = muster_stmt_reset(handle)
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: statement.sql)
    }
}
