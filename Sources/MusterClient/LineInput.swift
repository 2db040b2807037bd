import Foundation

/// Reads lines from a file descriptor (a terminal, a pipe, a USB scanner) with its own buffer.
///
/// The kiosk screen waits for input with a timeout, so that it can switch to a new campaign lock
/// while nobody types. Waiting with `poll(2)` on top of `FILE*` buffering would miss lines that
/// arrived together, so this reader keeps the buffer itself.
public final class LineInput {
    /// Longest line kept; longer input is cut into lines of this size rather than growing memory.
    public static let maxLineBytes = 16 * 1024
    let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    public init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// Whether a line (or the end of input) is ready, waiting up to `timeoutMillis`.
    public func waitForLine(timeoutMillis: Int32) -> Bool {
        if hasLine { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMillis)
        if ready > 0 { fill() }
        return hasLine
    }

    /// The next line without its line end, or nil at the end of input. Blocks until one is there.
    public func readLine() -> String? {
        while !hasLine { fill() }
        if let newline = buffer.firstIndex(of: 0x0A) {
            var line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if line.last == 0x0D { line.removeLast() }
            return String(decoding: line, as: UTF8.self)
        }
        if buffer.count >= Self.maxLineBytes {
            let line = Array(buffer[..<Self.maxLineBytes])
            buffer.removeSubrange(..<Self.maxLineBytes)
            return String(decoding: line, as: UTF8.self)
        }
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    private var hasLine: Bool { ended || buffer.contains(0x0A) || buffer.count >= Self.maxLineBytes }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 || errno != EINTR {
                ended = true
            } else {
                continue
            }
            return
        }
    }
}
