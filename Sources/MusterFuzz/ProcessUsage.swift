import Foundation

/// Peak memory of this process, printed after every target so a parser that buffers without bound
/// shows up even when it does not crash.
enum ProcessUsage {
    /// `getrusage`'s `ru_maxrss` (KiB on Linux) in MiB; the peak over the whole process so far.
    static var peakRSSMiB: Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024
    }
}
