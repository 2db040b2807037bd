import Foundation
import GRDB
import GRDBSQLite
public import MusterRules

/// Values bound in order to a prepared write statement, straight through SQLite's C API.
///
/// Catching up on 100,000 deltas runs the same four statements 100,000 times each; building GRDB's
/// `StatementArguments` (an array of existentials) and validating it cost about a third of the
/// instructions of an ingest (callgrind, BENCHMARKS.md). The statement itself is still prepared
/// and cached by GRDB; only the binding and stepping are done here. See ``Database/run(_:bind:)``.
struct BoundStatement {
    private let handle: OpaquePointer
    private var index: Int32 = 0
    /// The result code of the first bind that failed, or 0.
    private(set) var failure: Int32 = 0

    /// Only for a statement about to run (``Database/run(_:bind:)``, ``Database/readFirst(_:bind:read:)``).
    init(handle: OpaquePointer) { self.handle = handle }

    /// `SQLITE_TRANSIENT`: SQLite copies text and blobs before the bind returns (the macro is a cast
    /// C cannot export to Swift).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private mutating func next(_ bind: (OpaquePointer, Int32) -> Int32) {
        index += 1
        let rc = bind(handle, index)
        if rc != 0 && failure == 0 { failure = rc }
    }

    mutating func int(_ value: Int64) { next { sqlite3_bind_int64($0, $1, value) } }

    mutating func int(_ value: Int64?) {
        if let value { int(value) } else { null() }
    }

    mutating func bool(_ value: Bool) { int(value ? 1 : 0) }

    mutating func null() { next { sqlite3_bind_null($0, $1) } }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            next { handle, index in
                utf8.withMemoryRebound(to: CChar.self) {
                    // An empty value still needs a non-null pointer, or SQLite binds NULL.
                    sqlite3_bind_text(
                        handle,
                        index,
                        $0.baseAddress ?? Self.empty.assumingMemoryBound(to: CChar.self),
                        Int32($0.count),
                        Self.transient
                    )
                }
            }
        }
    }

    mutating func text(_ value: String?) {
        if let value { text(value) } else { null() }
    }

    mutating func blob(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { blob($0) }
    }

    mutating func blob(_ bytes: Data) {
        bytes.withUnsafeBytes { blob($0) }
    }

    /// Part of an array, in place: a field of an envelope.
    mutating func blob(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { blob($0) }
    }

    /// An empty blob is bound from a non-null pointer, or SQLite would store NULL.
    private mutating func blob(_ raw: UnsafeRawBufferPointer) {
        let base = raw.count == 0 ? Self.empty : raw.baseAddress
        next { sqlite3_bind_blob($0, $1, base, Int32(raw.count), Self.transient) }
    }

    /// A valid pointer to zero bytes (a NUL, static for the life of the program), for empty values.
    private static var empty: UnsafeRawPointer { UnsafeRawPointer(("" as StaticString).utf8Start) }
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
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var bound = BoundStatement(handle: handle)
        bind(&bound)
        var rc = bound.failure
        if rc == 0 {
            rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { rc = 0 }
        }
        guard rc != 0 else {
            sqlite3_reset(handle)
            return
        }
        let message = sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }
        sqlite3_reset(handle)
        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: statement.sql)
    }
}
