import MusterCore
import Testing

@testable import MusterClient

@Suite("Arrival chart")
struct ArrivalChartTests {
    /// "HH:MM" in UTC, so the chart does not depend on the machine's time zone.
    static func utc(_ millis: Int64) -> String {
        let minutes = (millis / 60_000) % (24 * 60)
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    static let nine: Int64 = 1_795_338_000_000  // 2026-11-22 09:00 UTC
    static let tenMinutes: Int64 = 600_000

    @Test func bucketsCountEveryArrivalAndKeepEmptyBuckets() {
        let times = [Self.nine + 1, Self.nine + 2, Self.nine + 2 * Self.tenMinutes + 5]
        let buckets = ArrivalChart.bucket(times, bucketMillis: Self.tenMinutes)
        #expect(buckets.map(\.start) == [Self.nine, Self.nine + Self.tenMinutes, Self.nine + 2 * Self.tenMinutes])
        #expect(buckets.map(\.count) == [2, 0, 1])
        #expect(ArrivalChart.bucket([], bucketMillis: Self.tenMinutes).isEmpty)
    }

    @Test func knownDataDrawsKnownLines() {
        let counts = [4, 8, 2, 0, 1]
        let buckets = counts.enumerated().map { (Self.nine + Int64($0.offset) * Self.tenMinutes, $0.element) }
        let lines = ArrivalChart(title: "Arrivals in Hall A per 10 min", buckets: buckets).lines(time: Self.utc)
        // 80 columns: 6 for the time, 1 axis, 71 of bar, 1 space, 1 digit of count.
        let full = String(repeating: "█", count: 71)
        #expect(
            lines == [
                "Arrivals in Hall A per 10 min",
                "09:00 │" + String(repeating: "█", count: 35) + "▌" + String(repeating: " ", count: 36) + "4",
                "09:10 │" + full + " 8",
                "09:20 │" + String(repeating: "█", count: 17) + "▊" + String(repeating: " ", count: 54) + "2",
                "09:30 │" + String(repeating: " ", count: 72) + "0",
                "09:40 │" + String(repeating: "█", count: 8) + "▉" + String(repeating: " ", count: 63) + "1",
                "      └" + String(repeating: "─", count: 71),
                "      0" + String(repeating: " ", count: 70) + "8",
                "      arrivals per bucket (time on the left)",
            ]
        )
        #expect(lines.allSatisfy { $0.count <= ArrivalChart.maxWidth }, "fits 80 columns")
    }

    @Test func wideCountsStillFit80Columns() {
        let chart = ArrivalChart(title: "t", buckets: [(Self.nine, 123_456), (Self.nine + Self.tenMinutes, 1)])
        #expect(chart.lines(time: Self.utc).allSatisfy { $0.count <= ArrivalChart.maxWidth })
    }

    @Test func noArrivalsSaysSo() {
        #expect(ArrivalChart(title: "Arrivals", buckets: []).lines(time: Self.utc) == ["Arrivals", "No arrivals."])
    }

    @Test func aHostileTitleIsSanitized() {
        let lines = ArrivalChart(title: "Hall\u{1B}[2J A", buckets: []).lines(time: Self.utc)
        #expect(!lines[0].contains("\u{1B}"))
    }

    @Test func bucketSizes() throws {
        #expect(try ArrivalsReport.bucketMillis("10m") == 600_000)
        #expect(try ArrivalsReport.bucketMillis("1h") == 3_600_000)
        #expect(try ArrivalsReport.bucketMillis("30s") == 30_000)
        #expect(try ArrivalsReport.bucketMillis("15") == 900_000)
        #expect(throws: ClientError.self) { try ArrivalsReport.bucketMillis("0m") }
        #expect(throws: ClientError.self) { try ArrivalsReport.bucketMillis("soon") }
    }
}
