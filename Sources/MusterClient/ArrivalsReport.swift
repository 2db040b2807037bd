import MusterAttendeeList
import MusterCore
import MusterRules
import MusterTime

/// `muster report arrivals`: arrivals per time bucket, one chart per zone (or for one zone), or
/// the same figures as CSV for a spreadsheet.
public struct ArrivalsReport {
    let queries: StaffQueries
    let client: ClientContext

    public init(_ client: ClientContext) {
        self.client = client
        queries = StaffQueries(client)
    }

    /// "10m", "1h", "30s" or a number of minutes, as milliseconds.
    public static func bucketMillis(_ text: String) throws(ClientError) -> Int64 {
        let trimmed = text.trimmingWhitespace().lowercased()
        let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        let (number, unit) =
            units.first { trimmed.hasSuffix($0.0) && Int64(trimmed.dropLast($0.0.count)) != nil }
            .map { (Int64(trimmed.dropLast($0.0.count)), $0.1) } ?? (Int64(trimmed), 60_000)
        guard let number, number > 0, number <= 7 * 24 * 60, number * unit >= 1_000 else {
            throw ClientError(
                .usage,
                "--bucket '\(TerminalText.sanitize(text))': use e.g. 10m, 1h or 30s (at least 1s)"
            )
        }
        return number * unit
    }

    /// One chart per zone (in zone order), or only `zone`'s.
    public func charts(
        campaign: String?,
        zone: String?,
        bucketMillis: Int64
    ) throws(ClientError) -> [(zone: String, chart: ArrivalChart)] {
        let id = try queries.campaignID(campaign)
        let arrivals: [(atMillis: Int64, zone: String)]
        do {
            arrivals = try client.replica().arrivals(campaignID: id, zone: zone)
        } catch {
            throw StaffQueries.clientError(error)
        }
        let zones = Set(arrivals.map(\.zone)).sorted()
        guard !zones.isEmpty else {
            return [(zone ?? "", ArrivalChart(title: "Arrivals" + (zone.map { " in \($0)" } ?? ""), buckets: []))]
        }
        let minutes = bucketMillis / 60_000
        let size = minutes > 0 && bucketMillis % 60_000 == 0 ? "\(minutes) min" : "\(bucketMillis / 1_000) s"
        return zones.map { name in
            let times = arrivals.filter { $0.zone == name }.map(\.atMillis)
            let chart = ArrivalChart(
                title: "Arrivals in \(name.isEmpty ? "(no zone)" : name) per \(size)",
                buckets: ArrivalChart.bucket(times, bucketMillis: bucketMillis)
            )
            return (name, chart)
        }
    }

    /// The first entries into one session (issue 36), as one chart of its zone.
    public func sessionChart(
        _ name: String,
        campaign: String?,
        bucketMillis: Int64
    ) throws(ClientError) -> (zone: String, chart: ArrivalChart) {
        let session = try queries.session(named: name)
        let now = client.time.wallMillis
        let lines = try queries.attendance(campaign: campaign, session: session.id, nowMillis: Int64(clamping: now))
        let chart = ArrivalChart(
            title:
                "Arrivals at \(session.name) (\(session.zone)) per \(bucketMillis / 60_000 > 0 ? "\(bucketMillis / 60_000) min" : "\(bucketMillis / 1_000) s")",
            buckets: ArrivalChart.bucket(lines.compactMap(\.line.inMillis), bucketMillis: bucketMillis)
        )
        return (session.zone, chart)
    }

    /// The same figures as CSV: `Bucket,Zone,Arrivals`, formula-safe.
    public static func csv(_ charts: [(zone: String, chart: ArrivalChart)]) -> String {
        var rows: [[String]] = []
        for (zone, chart) in charts {
            for bucket in chart.buckets {
                rows.append([ClockText.iso8601(millis: bucket.start), zone, String(bucket.count)])
            }
        }
        return Exporter.document(header: ["Bucket", "Zone", "Arrivals"], rows: rows)
    }
}
