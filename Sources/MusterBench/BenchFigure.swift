/// One measured figure, printed beside the limit it is compared with (both measured in the same run).
///
/// `ratio` is `value / limit` for rates and `limit / value` for latencies, so that 1.0 always means
/// "as fast as the limit" and a larger number is better.
struct BenchFigure: Encodable {
    let name: String
    let value: Double
    let unit: String
    /// What the limit is (e.g. "raw Ed25519 verify"); nil for a figure that is itself a limit.
    let limitName: String?
    let limit: Double?
    let ratio: Double?
    let target: String
    let met: Bool

    enum CodingKeys: String, CodingKey {
        case name, value, unit, limitName = "limit_name", limit, ratio, target, met
    }

    /// Writes every key, `null` included, so each object in results.json has the same shape.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
        try container.encode(unit, forKey: .unit)
        try container.encode(limitName, forKey: .limitName)
        try container.encode(limit, forKey: .limit)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(target, forKey: .target)
        try container.encode(met, forKey: .met)
    }

    /// A physical limit of this machine: reported, never judged.
    static func limit(_ name: String, value: Double, unit: String) -> BenchFigure {
        BenchFigure(
            name: name,
            value: value,
            unit: unit,
            limitName: nil,
            limit: nil,
            ratio: nil,
            target: "limit",
            met: true
        )
    }
}
