import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file's permission bits and type, read and set the way the tests of secret files and sockets need them.
public enum FilePermissions {
    /// The `rwx` bits of `path` (`0o600` for a secret file).
    public static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    /// Sets the `rwx` bits of `path`.
    public static func set(_ mode: Int, of path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: NSNumber(value: mode)], ofItemAtPath: path)
    }

    /// Whether `path` itself (not what a link points to) is a Unix socket.
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFSOCK
    }
}
