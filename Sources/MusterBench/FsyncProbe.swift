import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The raw durability cost of this disk: a small write followed by `fsync`, timed per call.
/// A `synchronous=FULL` commit in WAL mode needs at least one such fsync, so it is the floor of
/// a local check-in's latency.
enum FsyncProbe {
    /// `count` timed write+fsync pairs, each after `pace` of sleep when given (the limit of check-ins
    /// made at a door's pace: after an idle gap the CPU and the disk answer slower than back to back).
    static func run(count: Int, directory: String, pace: Duration? = nil) throws -> LatencySample {
        let path = directory + "/fsync-probe"
        let fd = try check("open(\(path))") { open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        defer { close(fd) }
        let record = [UInt8](repeating: 0x5A, count: 256)
        var sample = LatencySample()
        for _ in 0..<count {
            if let pace { LocalCommitBench.sleep(pace) }
            let start = Stopwatch.now()
            let written = try check("write") { record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            guard written == record.count else { throw BenchError(.syscall, "write: short write of \(written) bytes") }
            _ = try check("fsync") { fsync(fd) }
            sample.record(nanoseconds: Stopwatch.now() - start)
        }
        return sample
    }

    /// Runs a syscall, retrying EINTR, and turns -1 into an error naming the call.
    private static func check<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(BenchError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw BenchError(.syscall, "\(call) failed: \(String(cString: strerror(errno)))")
        }
    }
}
