import Foundation

/// A fresh directory for one test; call `remove()` in a `defer`.
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
}
