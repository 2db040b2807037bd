/// Decides what a resolved `_muster._tcp` service is to this kiosk.
///
/// Only services of this venue, from another kiosk, with a well-formed TXT record become peers.
/// Everything else is ignored, with a reason for the log: the LAN is shared with other venues'
/// kiosks, this kiosk sees its own announcement, and anyone can announce anything.
struct PeerClassifier: Sendable {
    enum Verdict: Equatable, Sendable {
        case peer(DiscoveredPeer)
        /// This kiosk's own announcement (same fingerprint).
        case own
        /// A kiosk of another venue (its venue id).
        case otherVenue(String)
        /// Not a Muster record Muster could have written.
        case malformed(TXTRecordError)
    }

    /// Lowercase hex.
    let venueID: String
    /// Lowercase.
    let fingerprint: String

    init(record: MusterTXTRecord) {
        venueID = record.venueID
        fingerprint = record.fingerprint
    }

    func classify(_ service: ResolvedService) -> Verdict {
        let record: MusterTXTRecord
        do {
            record = try MusterTXTRecord(entries: service.txt)
        } catch {
            return .malformed(error)
        }
        guard record.venueID == venueID else { return .otherVenue(record.venueID) }
        guard record.fingerprint != fingerprint else { return .own }
        return .peer(
            DiscoveredPeer(
                serviceName: service.instance.name,
                host: service.host,
                port: service.port,
                venueID: record.venueID,
                fingerprint: record.fingerprint,
                protocolVersion: record.protocolVersion
            )
        )
    }
}
