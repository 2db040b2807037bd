import GRDB

extension Database {
    /// Executes a statement that is prepared once per connection and then reused (GRDB's statement
    /// cache, keyed by the SQL text). The replica's write paths run the same few statements for
    /// every delta; compiling them each time cost more than running them.
    func run(_ sql: String, _ arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
