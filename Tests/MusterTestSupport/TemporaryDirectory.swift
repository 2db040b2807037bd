import Foundation

/// A fresh directory for one test; call `remove()` in a `defer`, or use ``with(_:_:)``.
///
/// Lives under /tmp with a short name: Unix socket paths inside it are limited to 108 bytes.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "muster-tests") throws {
        let base = FileManager.default.fileExists(atPath: "/tmp") ? "/tmp" : NSTemporaryDirectory()
        path = (base as NSString).appendingPathComponent("\(label)-\(UUID().uuidString.prefix(13))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Runs `body` with a fresh directory and removes it afterwards, however `body` ends.
    public static func with<T>(_ label: String = "muster-tests", _ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(label)
        defer { directory.remove() }
        return try body(directory)
    }

    /// The async form of ``with(_:_:)``.
    public static func with<T>(
        _ label: String = "muster-tests",
        _ body: (TemporaryDirectory) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory(label)
        defer { directory.remove() }
        return try await body(directory)
    }
}

/// A fresh directory (its path) for one test, removed when `body` returns (tests run in parallel).
public func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    try TemporaryDirectory.with { try body($0.path) }
}
