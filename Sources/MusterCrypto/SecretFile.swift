import Foundation
import MusterCore

/// POSIX plumbing for files that hold secrets (key files, venue files).
///
/// Writes never expose a half-written or world-readable file: the data goes to
/// a temporary file in the same directory, created with mode 0600 from the
/// start (never widened then narrowed), fsync'd, then renamed (or hard-linked,
/// when overwriting is not allowed) into place. Reads refuse anything that
/// group or others could access, so a leaked-permission key is noticed instead
/// of silently used.
enum SecretFile {
    /// Secret files are tiny; anything larger is not one of ours.
    static let maximumByteCount = 64 * 1024

    // MARK: Writing

    /// Atomically stores `bytes` at `path` with mode 0600.
    static func store(_ bytes: UnsafeRawBufferPointer, at path: String, overwrite: Bool) throws(MusterCryptoError) {
        let (directory, name) = try split(path)
        let temporary = directory + "/." + name + ".tmp-" + Hex.encode(SecureRandom.bytes(count: 8))

        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard fd >= 0 else {
            throw ioError("Could not create a temporary file in \(directory)", errno)
        }
        var keepTemporary = false
        defer { if !keepTemporary { unlink(temporary) } }

        do throws(MusterCryptoError) {
            // The umask can only remove bits, but make the mode exact regardless.
            if fchmod(fd, 0o600) != 0 { throw ioError("Could not set mode 0600 on \(temporary)", errno) }
            try writeAll(fd, bytes, path: temporary)
            if fsync(fd) != 0 { throw ioError("Could not flush \(temporary) to disk", errno) }
        } catch {
            close(fd)
            throw error
        }
        if close(fd) != 0 { throw ioError("Could not finish writing \(temporary)", errno) }

        if overwrite {
            if rename(temporary, path) != 0 {
                throw ioError("Could not move the new file into place at \(path)", errno)
            }
            keepTemporary = true  // it now *is* the destination
        } else {
            try placeWithoutOverwriting(temporary, at: path)
        }
        syncDirectory(directory)
    }

    /// `link` fails with EEXIST instead of replacing, which makes "create only
    /// if absent" atomic. On file systems without hard links, fall back to a
    /// check-then-rename, which is racy only against a concurrent writer.
    private static func placeWithoutOverwriting(_ temporary: String, at path: String) throws(MusterCryptoError) {
        if link(temporary, path) == 0 { return }  // the deferred unlink removes the temporary name
        let linkErrno = errno
        if linkErrno == EEXIST { throw alreadyExists(path) }
        guard linkErrno == EPERM || linkErrno == EOPNOTSUPP || linkErrno == ENOSYS || linkErrno == EMLINK else {
            throw ioError("Could not create \(path)", linkErrno)
        }
        var info = stat()
        if lstat(path, &info) == 0 { throw alreadyExists(path) }
        if rename(temporary, path) != 0 { throw ioError("Could not move the new file into place at \(path)", errno) }
    }

    private static func alreadyExists(_ path: String) -> MusterCryptoError {
        MusterCryptoError(
            .io,
            "\(path) already exists; refusing to overwrite it. Move it aside or ask to overwrite explicitly."
        )
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(MusterCryptoError) {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw ioError("Could not write \(path)", errno)
            }
            cursor += written
            remaining -= written
        }
    }

    /// Makes the rename durable. Best effort: the file is already in place and
    /// some file systems reject fsync on directories, so failure is not reported.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    // MARK: Reading

    /// Reads a secret file, refusing non-regular files, files that group or
    /// others may access, and files too large to be ours. `what` names the
    /// file in messages (e.g. "key file"). The contents come back in
    /// `SecureBytes`, which zeroes them when released.
    static func load(_ path: String, what: String) throws(MusterCryptoError) -> SecureBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw MusterCryptoError(.io, "There is no \(what) at \(path).") }
            throw ioError("Could not open the \(what) at \(path)", code)
        }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("Could not inspect the \(what) at \(path)", errno) }
        guard info.st_mode & 0o170000 == 0o100000 else {
            throw MusterCryptoError(.badKeyFile, "The \(what) at \(path) is not a regular file.")
        }
        let permissions = info.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw MusterCryptoError(
                .badKeyFile,
                "The \(what) at \(path) has mode \(octal(permissions)), so other users may be able to read it. "
                    + "Run `chmod 600 \(path)` and try again (and consider the key compromised if others had access)."
            )
        }
        guard info.st_size <= maximumByteCount else {
            throw MusterCryptoError(
                .badKeyFile,
                "The \(what) at \(path) is \(info.st_size) bytes, too large to be a Muster \(what)."
            )
        }

        // Read straight into secure memory so the file's secrets never sit in ordinary arrays.
        let size = Int(info.st_size)
        return try SecureBytes(count: size) { buffer throws(MusterCryptoError) in
            var total = 0
            while total < size, let base = buffer.baseAddress {
                let got = read(fd, base + total, size - total)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ioError("Could not read the \(what) at \(path)", errno)
                }
                if got == 0 {
                    throw MusterCryptoError(.io, "The \(what) at \(path) changed while it was being read; try again.")
                }
                total += got
            }
        }
    }

    // MARK: Helpers

    /// Splits a path into its directory (for the temporary file) and last component.
    private static func split(_ path: String) throws(MusterCryptoError) -> (directory: String, name: String) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw MusterCryptoError(.io, "\"\(path)\" is not a file path.")
        }
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func ioError(_ what: String, _ code: Int32) -> MusterCryptoError {
        MusterCryptoError(.io, "\(what): \(String(cString: strerror(code))).")
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
