import MusterCore
import MusterTime

/// Arrivals per time bucket as a horizontal bar chart for the terminal: one row per bucket with its
/// start time on the left (the time axis), bars of Unicode blocks in eighths, the count on the
/// right, and a labelled count axis underneath. Never wider than ``maxWidth`` columns, so the
/// morning rush reads at a glance on any terminal.
///
/// Pure: it takes the bucketed counts and a way to print a time, so a test can pin the output.
public struct ArrivalChart: Sendable, Equatable {
    public static let maxWidth = 80
    /// Left margin: "HH:MM " (the time axis) plus the axis line.
    static let labelWidth = 6
    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public let title: String
    /// (bucket start in Unix milliseconds, arrivals), oldest first.
    public let buckets: [(start: Int64, count: Int)]

    public init(title: String, buckets: [(start: Int64, count: Int)]) {
        self.title = title
        self.buckets = buckets
    }

    public static func == (lhs: ArrivalChart, rhs: ArrivalChart) -> Bool {
        lhs.title == rhs.title && lhs.buckets.elementsEqual(rhs.buckets) { $0 == $1 }
    }

    /// Counts `times` (Unix milliseconds) into buckets of `bucketMillis`, every bucket from the
    /// first arrival to the last included (empty ones too, so the time axis has no gaps).
    public static func bucket(_ times: [Int64], bucketMillis: Int64) -> [(start: Int64, count: Int)] {
        guard bucketMillis > 0, let first = times.min(), let last = times.max() else { return [] }
        let origin = first - ((first % bucketMillis) + bucketMillis) % bucketMillis
        let count = Int((last - origin) / bucketMillis) + 1
        var counts = [Int](repeating: 0, count: count)
        for time in times { counts[Int((time - origin) / bucketMillis)] += 1 }
        return counts.enumerated().map { (origin + Int64($0.offset) * bucketMillis, $0.element) }
    }

    /// The chart's lines; `time` prints a bucket's start (local "HH:MM" in the CLI).
    public func lines(time: (Int64) -> String = { ClockText.time(millis: $0) }) -> [String] {
        var lines = [TerminalText.sanitize(title, maxCharacters: Self.maxWidth)]
        guard let peak = buckets.map(\.count).max(), peak > 0 else {
            lines.append("No arrivals.")
            return lines
        }
        let countWidth = String(peak).count
        // Label, axis, bar, a space, the count: the bar gets what is left of 80 columns.
        let barWidth = Self.maxWidth - Self.labelWidth - 1 - 1 - countWidth
        for bucket in buckets {
            let label = String(time(bucket.start).prefix(5))
            let padded = label + String(repeating: " ", count: max(0, Self.labelWidth - 1 - label.count))
            let eighthsTotal = bucket.count * barWidth * 8 / peak
            let bar = String(repeating: "█", count: eighthsTotal / 8) + Self.eighths[eighthsTotal % 8]
            let gap = String(repeating: " ", count: barWidth - bar.count + 1)
            lines.append(padded + " │" + bar + gap + String(bucket.count))
        }
        let axis = String(repeating: " ", count: Self.labelWidth) + "└" + String(repeating: "─", count: barWidth)
        lines.append(axis)
        let zero = String(repeating: " ", count: Self.labelWidth) + "0"
        let peakText = String(peak)
        let spaces = Self.labelWidth + 1 + barWidth - zero.count - peakText.count
        lines.append(zero + String(repeating: " ", count: max(1, spaces)) + peakText)
        lines.append(String(repeating: " ", count: Self.labelWidth) + "arrivals per bucket (time on the left)")
        return lines
    }
}
