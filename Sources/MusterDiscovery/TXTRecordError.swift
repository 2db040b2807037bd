/// Why a `_muster._tcp` TXT record was refused; logged, never shown to attendees.
enum TXTRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A required key (`v`, `venue`, `fp`) is absent.
    case missing(key: String)
    /// A key's value does not have the shape Muster writes.
    case malformed(key: String)

    var description: String {
        switch self {
        case .missing(let key): "TXT record has no \(key)="
        case .malformed(let key): "TXT record has a malformed \(key)="
        }
    }
}
