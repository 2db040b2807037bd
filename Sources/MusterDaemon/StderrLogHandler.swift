import Foundation
public import Logging
public import MusterTime

/// Logs one line per event to stderr. Under systemd (`JOURNAL_STREAM` set) each line starts with
/// a `<N>` syslog priority and no timestamp, because the journal adds its own.
public struct StderrLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let journal: Bool
    /// Where the timestamp of a line outside the journal comes from.
    let time: any TimeSource

    public init(
        label: String,
        level: Logger.Level,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        time: any TimeSource = SystemTime()
    ) {
        self.label = label
        self.logLevel = level
        self.journal = environment["JOURNAL_STREAM"] != nil
        self.time = time
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = fields.isEmpty ? "\(event.message)" : "\(event.message) \(fields)"
        let line: String
        if journal {
            line = "<\(Self.priority(event.level))>\(text)\n"
        } else {
            line = "\(ClockText.iso8601(millis: Int64(time.wallMillis))) \(event.level) \(label): \(text)\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
