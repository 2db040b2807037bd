public import Foundation

extension TimeSource {
    /// ``wallMillis`` as a Foundation `Date`, for calendar arithmetic and formatters ("today at 09:30").
    public var wallDate: Date { Date(timeIntervalSince1970: Double(wallMillis) / 1000) }
}
