import Foundation

extension AttendeeListImport {
    /// The bytes of an attendee file, refusing one larger than `limits.maximumFileBytes` before reading it.
    ///
    /// The size comes from `fstat` on the open descriptor, so the file checked is the file read; reading then stops
    /// one byte past the limit anyway, which also bounds a file that grows meanwhile and pipes (whose size `fstat`
    /// reports as 0). A regular file is read straight into one buffer of its size: the only copy of the bytes.
    ///
    /// Throws ``AttendeeListError`` with line 0: `.fileTooLarge` or `.unreadable`.
    public static func read(
        contentsOfFile path: String,
        limits: AttendeeListLimits = .standard
    ) throws(AttendeeListError) -> Data {
        let limit = limits.maximumFileBytes
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw unreadable(errno) }
        let isRegularFile = info.st_mode & 0o170000 == 0o100000
        let statedSize = isRegularFile ? Int(info.st_size) : 0
        guard statedSize <= limit else {
            throw AttendeeListError(line: 0, reason: .fileTooLarge(bytes: statedSize, limit: limit))
        }

        // One spare byte tells a file that is exactly its stated size from one that kept going.
        var data = Data(count: statedSize + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard filled <= limit else {
                    throw AttendeeListError(line: 0, reason: .fileTooLarge(bytes: filled, limit: limit))
                }
                data.count = min(limit + 1, max(filled * 2, filled + 64 * 1024))
            }
            let capacity = data.count
            let (got, code) = data.withUnsafeMutableBytes { buffer in
                // `capacity` is at least 1, so there is a base address.
                readSome(fd, into: buffer.baseAddress! + filled, count: capacity - filled)
            }
            if got < 0 {
                if code == EINTR { continue }
                throw unreadable(code)
            }
            if got == 0 { break }
            filled += got
        }
        data.count = filled
        return data
    }

    private static func unreadable(_ code: Int32) -> AttendeeListError {
        AttendeeListError(line: 0, reason: .unreadable(String(cString: strerror(code))))
    }
}

/// `read(2)` and its `errno` (0 on success), taken before anything else can overwrite it. A free function because
/// inside `AttendeeListImport` the name `read` means ``AttendeeListImport/read(contentsOfFile:limits:)``.
private func readSome(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> (Int, Int32) {
    let got = read(fd, buffer, count)
    return (got, got < 0 ? errno : 0)
}
