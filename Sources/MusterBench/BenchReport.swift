import Foundation

/// The figures of one run as one table on stdout and as JSON in `.bench/results.json`.
struct BenchReport {
    /// A `--quick` run: sizes too small for the targets to mean anything, so none is judged in the table.
    let quick: Bool
    private(set) var figures: [BenchFigure] = []
    private(set) var notes: [String] = []
    /// Figures that could not be measured here (e.g. the lab needs root): printed, not in the JSON.
    private(set) var skipped: [(name: String, target: String, reason: String)] = []

    /// Adds a figure and shows it on stderr at once, so an interrupted run still says what it measured.
    mutating func add(_ figure: BenchFigure) {
        figures.append(figure)
        let limit = figure.limit.map { " (limit \(Self.format($0)), \(figure.limitName ?? ""))" } ?? ""
        BenchCommand.progress("= \(figure.name): \(Self.format(figure.value)) \(figure.unit)\(limit)")
    }
    mutating func note(_ text: String) { notes.append(text) }
    mutating func skip(_ name: String, target: String, reason: String) { skipped.append((name, target, reason)) }

    /// A figure where smaller is better (a time, a size, a rate of use): ratio = limit / value.
    mutating func lower(
        _ name: String,
        _ value: Double,
        unit: String,
        limitName: String,
        limit: Double?,
        target: String,
        met: Bool
    ) {
        add(
            BenchFigure(
                name: name,
                value: value,
                unit: unit,
                limitName: limit == nil ? nil : limitName,
                limit: limit,
                ratio: limit.flatMap { value > 0 ? $0 / value : nil },
                target: target,
                met: met
            )
        )
    }

    /// A rate judged against a limit rate: ratio = value / limit.
    mutating func rate(
        _ name: String,
        _ value: Double,
        unit: String,
        limitName: String,
        limit: Double,
        target: String,
        met: (Double, Double) -> Bool
    ) {
        add(
            BenchFigure(
                name: name,
                value: value,
                unit: unit,
                limitName: limitName,
                limit: limit,
                ratio: value / limit,
                target: target,
                met: met(value, value / limit)
            )
        )
    }

    /// A latency judged against a limit latency: ratio = limit / value (1.0 means as fast as the limit).
    mutating func latency(
        _ name: String,
        _ value: Double,
        limitName: String,
        limit: Double,
        target: String,
        met: Bool
    ) {
        lower(name, value, unit: "ms", limitName: limitName, limit: limit, target: target, met: met)
    }

    func table() -> String {
        let header = ["figure", "value", "limit (same run)", "ratio", "target", "met"]
        let rows =
            figures.map { figure -> [String] in
                [
                    figure.name, Self.format(figure.value) + " " + figure.unit,
                    figure.limit.map { "\(Self.format($0)) (\(figure.limitName ?? ""))" } ?? "—",
                    figure.ratio.map { String(format: "%.2f×", $0) } ?? "—", figure.target,
                    figure.target == "limit" || figure.target == "—" ? "" : quick ? "n/a" : (figure.met ? "yes" : "NO"),
                ]
            } + skipped.map { [$0.name, "not measured: \($0.reason)", "—", "—", $0.target, ""] }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ")
                + " |"
        }
        var out = [
            line(header), "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|",
        ]
        out += rows.map(line)
        out += notes.map { "- " + $0 }
        return out.joined(separator: "\n")
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(figures).write(to: url, options: .atomic)
    }

    static func format(_ value: Double) -> String {
        if value >= 1_000 {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            formatter.groupingSeparator = ","
            formatter.usesGroupingSeparator = true
            return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
        }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.3f", value)
    }
}
