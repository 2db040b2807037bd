import MusterCore
public import MusterRules

/// The organizer's occupancy view as lines of at most 80 columns: one per zone with inside /
/// capacity and a bar, then the venue. Zone names come from certificates, so they are sanitized
/// and cut to fit.
public enum OccupancyText {
    /// Width of the bar, in cells.
    static let barWidth = 24
    /// Widest zone name shown.
    static let nameWidth = 20

    public static func lines(_ occupancy: Occupancy) -> [String] {
        guard occupancy.campaignID != nil else { return ["No lock: the kiosks wait for the organizer."] }
        var lines = ["Zone                  Inside / Capacity"]
        for zone in occupancy.zones {
            lines.append(line(name: zone.zone, inside: zone.inside, capacity: zone.capacity))
        }
        lines.append(line(name: "Venue (anywhere)", inside: occupancy.inside, capacity: occupancy.capacity))
        return lines
    }

    /// e.g. `Hall A                   120 / 200     ██████████████░░░░░░░░░░  60%`.
    static func line(name: String, inside: Int, capacity: Int?) -> String {
        let shown = pad(TerminalText.sanitize(name, maxCharacters: nameWidth), to: nameWidth)
        let figures = pad(String(inside), to: 6, left: true) + " / " + pad(capacity.map(String.init) ?? "-", to: 6)
        guard let capacity, capacity > 0 else { return shown + "  " + figures }
        let filled = min(barWidth, inside * barWidth / capacity)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let percent = pad("\(inside * 100 / capacity)%", to: 5, left: true)
        let over = inside > capacity ? " +\(inside - capacity) over" : ""
        return shown + "  " + figures + "  " + bar + percent + over
    }

    static func pad(_ text: String, to width: Int, left: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return left ? gap + text : text + gap
    }
}
