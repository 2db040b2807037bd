import Foundation
public import MusterCore
public import MusterRules
import Synchronization

/// An opt-in record of when each delta was committed to this replica, for measuring propagation
/// (`muster-bench`, issue 6): one line per delta, `<author-hex> <seq> <CLOCK_MONOTONIC ns> local|remote`.
///
/// CLOCK_MONOTONIC is one clock for the whole host, network namespaces included, so the traces of the
/// lab's kiosks can be compared line by line. Off unless `MUSTER_COMMIT_TRACE` names a file (see
/// ``fromEnvironment(kioskName:)``); when off, nothing is formatted or written. When on, the lines of
/// one commit are formatted into one buffer and appended with one `write(2)` (no fsync), so a trace
/// costs one syscall per committed batch and survives a SIGKILL of the daemon.
public final class CommitTrace: Sendable {
    public enum Origin: String, Sendable {
        /// Written by this kiosk (a check-in) or submitted to it by the organizer's `muster`.
        case local
        /// Received from a peer.
        case remote
    }

    /// The descriptor, opened O_APPEND; writes from several threads are serialized by the lock.
    private let descriptor: Mutex<Int32>

    /// Opens (creating it if needed) the file at `path` for appending; nil when it cannot be opened.
    public init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        descriptor = Mutex(fd)
    }

    deinit { descriptor.withLock { _ = close($0) } }

    /// The trace named by `MUSTER_COMMIT_TRACE`, with `{kiosk}` in it replaced by the kiosk's name (so
    /// one setting serves every kiosk of a lab); nil when the variable is unset or empty.
    public static func fromEnvironment(
        kioskName: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CommitTrace? {
        guard let template = environment["MUSTER_COMMIT_TRACE"], !template.isEmpty else { return nil }
        return CommitTrace(path: template.replacingOccurrences(of: "{kiosk}", with: kioskName))
    }

    /// Nanoseconds of CLOCK_MONOTONIC, the clock of every line.
    public static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Records deltas that were just committed. Call after the commit, never before.
    public func record(_ deltas: [SignedDelta], origin: Origin) {
        guard !deltas.isEmpty else { return }
        let stamp = Self.monotonicNanos()
        var text = ""
        text.reserveCapacity(deltas.count * 100)
        for delta in deltas {
            text += "\(delta.author.hex) \(delta.seq) \(stamp) \(origin.rawValue)\n"
        }
        var bytes = Array(text.utf8)
        descriptor.withLock { fd in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
