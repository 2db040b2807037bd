/// The error `body` throws (its type checked by the compiler through typed throws), or nil when it
/// returns: for tests that assert on an error's code.
///
///     let error = thrownError { () throws(ReplicaError) in try replica.ingest(...) }
///     #expect(error?.code == .badSignature)
public func thrownError<E: Error, T>(_ body: () throws(E) -> T) -> E? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
