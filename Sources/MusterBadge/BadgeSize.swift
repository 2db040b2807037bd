/// The physical size of one badge, in millimetres, as the label stock or paper in the printer.
///
/// Layout is done in millimetres (and PDF points, 1/72 in) rather than pixels, so the PDF a CUPS
/// driver receives is exactly the label's size and the driver never scales it: a DYMO or
/// Brother QL queue prints a 62 mm label at 62 mm.
public struct BadgeSize: Sendable, Hashable, CustomStringConvertible {
    public let widthMillimetres: Double
    public let heightMillimetres: Double

    /// Brother QL 62 mm continuous tape cut at 100 mm (DK-22205), portrait.
    public static let label62x100 = BadgeSize(widthMillimetres: 62, heightMillimetres: 100)
    /// ISO A6, portrait: a badge insert or a sheet printer with A6 paper.
    public static let a6 = BadgeSize(widthMillimetres: 105, heightMillimetres: 148)
    /// 4 × 3 in, landscape: the common DYMO / Zebra badge label.
    public static let fourByThreeInches = BadgeSize(widthMillimetres: 4 * 25.4, heightMillimetres: 3 * 25.4)

    /// - Precondition: none; ``init(parsing:)`` is the checked way for sizes that come from a file.
    public init(widthMillimetres: Double, heightMillimetres: Double) {
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
    }

    /// Reads a size as the config file writes it: `62x100` (millimetres), `a6`, `4x3in`, or any
    /// `WxH` / `WxHmm` / `WxHin`. Sizes from 20 mm to 300 mm a side are accepted; anything else is
    /// most likely a typo, and printing on it would waste a roll of labels.
    public init(parsing text: String) throws(BadgeError) {
        let spec = text.lowercased().filter { !$0.isWhitespace }
        switch spec {
        case "a6": self = .a6
        case "62x100": self = .label62x100
        default:
            var body = Substring(spec)
            var factor = 1.0
            if body.hasSuffix("in") {
                factor = 25.4
                body = body.dropLast(2)
            } else if body.hasSuffix("mm") {
                body = body.dropLast(2)
            }
            let parts = body.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]) else {
                throw BadgeError(.badLayout, "badge size '\(text)' is not WxH in mm (62x100), WxHin (4x3in) or a6")
            }
            self.init(widthMillimetres: width * factor, heightMillimetres: height * factor)
        }
        let range = 20.0...300.0
        guard range.contains(widthMillimetres), range.contains(heightMillimetres) else {
            throw BadgeError(.badLayout, "badge size '\(text)' is outside 20–300 mm a side")
        }
    }

    /// Width in PDF points (1/72 in), the unit cairo's PDF surface draws in.
    public var widthPoints: Double { widthMillimetres * Self.pointsPerMillimetre }
    public var heightPoints: Double { heightMillimetres * Self.pointsPerMillimetre }

    static let pointsPerMillimetre = 72.0 / 25.4

    public var description: String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(format: value)
        }
        return "\(number(widthMillimetres))×\(number(heightMillimetres)) mm"
    }
}

extension String {
    /// One decimal, without Foundation's locale-dependent formatting.
    fileprivate init(format value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
