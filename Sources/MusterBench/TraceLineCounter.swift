import Foundation

/// Counts the lines of a growing commit trace, reading only what was appended since the last call,
/// so that waiting on 50 kiosks does not steal the CPU they need.
final class TraceLineCounter {
    let path: String
    private var offset: UInt64 = 0
    private(set) var lines = 0

    init(path: String) { self.path = path }

    func update() -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return lines }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        let data = handle.readDataToEndOfFile()
        offset += UInt64(data.count)
        data.withUnsafeBytes { bytes in
            for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
        }
        return lines
    }
}
