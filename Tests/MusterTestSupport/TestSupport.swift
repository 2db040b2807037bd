import Foundation
public import Logging

/// Helpers shared by the live test targets (daemon, client).
public enum TestSupport {
    /// A logger that drops everything, for code under test that wants one.
    public static let quietLogger = Logger(label: "muster-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs blocking socket code on a plain thread, never on the cooperative pool that the code
    /// under test needs (on a 2-core machine a blocked pool thread stalls the server).
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
