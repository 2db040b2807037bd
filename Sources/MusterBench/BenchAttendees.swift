/// The attendees the lab benchmarks import: bench attendee `i` has email `a<i>@bench.example` and
/// ticket `MB-<i>`, so any process can name one without reading the replica.
enum BenchAttendees {
    static let campaign = "Bench"

    static func email(_ index: Int) -> String { "a\(index)@bench.example" }

    static func csv(first: Int, count: Int) -> String {
        var text = "email,first_name,last_name,company,ticket\n"
        text.reserveCapacity(60 * count + 64)
        for index in first..<(first + count) {
            text += "\(email(index)),First\(index),Last\(index),Bench Co \(index % 97),MB-\(index)\n"
        }
        return text
    }
}
