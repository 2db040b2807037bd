public import MusterCore
import MusterRules

/// Who is enrolled at the venue, as the simulator's memory store knows it: what `Replica`'s `roster`
/// table holds (the first certificate of each key wins).
///
/// A value: the simulator reads the venue's certificates once, and its thousand stores share one copy
/// until one of them changes it.
public struct MemoryRoster: Sendable {
    /// One certificate's content.
    public struct Entry: Sendable, Equatable {
        public let name: String
        public let location: String
        public let isDevice: Bool
        /// The certificate's stamp: the start of the window the kiosk's stamps must fall in.
        public let certificateHLC: HLC
    }

    public private(set) var entries: [AuthorID: Entry] = [:]

    public init() {}

    /// The venue's own certificates, as the simulator made them: decoded, not verified again.
    public init(certificates: [(SignedDelta, AuthorID)]) {
        for (certificate, _) in certificates {
            guard case .enroll(let payload)? = try? certificate.decode().body else { continue }
            enroll(payload, certificateHLC: certificate.hlc)
        }
    }

    /// Records an enrollment unless the key has one. Returns whether it was recorded.
    @discardableResult
    public mutating func enroll(_ payload: EnrollPayload, certificateHLC: HLC) -> Bool {
        guard entries[payload.kiosk] == nil else { return false }
        entries[payload.kiosk] = Entry(
            name: payload.name,
            location: payload.location,
            isDevice: payload.role == .organizerDevice,
            certificateHLC: certificateHLC
        )
        return true
    }

    public func isDevice(_ author: AuthorID) -> Bool { entries[author]?.isDevice ?? false }
}
