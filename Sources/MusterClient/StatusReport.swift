import MusterCore
import MusterCrypto
import MusterDaemon
public import MusterStore

/// `muster status`: who this kiosk is, the lock, counts, deltas per author and the digest.
public struct StatusReport: Encodable {
    public struct Author: Encodable {
        public let author: String
        public let role: String
        public let deltas: Int
        public let headSeq: UInt64
    }

    public let kiosk: String
    public let location: String
    public let kioskKey: String?
    public let fingerprint: String?
    public let daemonRunning: Bool
    /// Peer kiosks in session now ("publickeyhex@address").
    public let peers: [String]
    public let campaign: String?
    public let lockVersion: UInt64?
    public let checkInStatus: String?
    public let attendees: Int
    public let checkedIn: Int
    public let walkIns: Int
    public let inside: Int
    public let forks: Int
    public let clockWarnings: Int
    public let authors: [Author]
    public let digest: String

    init(config: KioskConfig, organizer: AuthorID, daemon: ControlResponse?, status: ReplicaStatus) {
        kiosk = config.name
        location = config.location
        kioskKey = daemon?.kioskKey
        fingerprint = daemon?.kioskKey.flatMap { try? SigningPublicKey(hex: $0) }?.fingerprint
        daemonRunning = daemon != nil
        peers = daemon?.peers ?? []
        campaign = status.lock?.campaignID == nil ? nil : (status.lock?.campaignName ?? status.lock?.campaignID)
        lockVersion = status.lock?.version
        checkInStatus = status.lock?.campaignID == nil ? nil : status.lock?.checkInStatus
        attendees = status.attendees
        checkedIn = status.checkedIn
        walkIns = status.walkIns
        inside = status.inside
        forks = status.forks
        clockWarnings = status.clockWarnings
        let kioskHex = daemon?.kioskKey
        authors = status.authors.map { count in
            let hex = count.author.hex
            let role = hex == kioskHex ? "this kiosk" : (count.author == organizer ? "organizer" : "kiosk")
            return Author(author: hex, role: role, deltas: count.deltas, headSeq: count.headSeq)
        }
        digest = status.digest
    }

    public func print() {
        Output.data("Kiosk:      \(kiosk)\(location.isEmpty ? "" : " (\(location))")")
        Output.line("Key:        \(fingerprint ?? "unknown (musterd not reachable)")")
        Output.data("Lock:       \(campaign.map { "\($0), v\(lockVersion ?? 0), status '\(checkInStatus ?? "")'" } ?? "none (waiting for the organizer)")")
        Output.line("Peers:      \(peers.isEmpty ? "none" : peers.map { String($0.prefix(12)) + "…" + ($0.split(separator: "@").last.map { " at \($0)" } ?? "") }.joined(separator: ", "))")
        Output.line("Attendees:  \(attendees)  checked in: \(checkedIn)  walk-ins: \(walkIns)  inside: \(inside)")
        if forks > 0 { Output.line("WARNING:    \(forks) fork(s) detected: an author signed two different deltas with the same seq") }
        if clockWarnings > 0 { Output.line("WARNING:    \(clockWarnings) delta(s) stamped too far ahead of this kiosk's clock") }
        Output.line("Deltas by author:")
        for author in authors {
            Output.line("  \(author.author.prefix(16))…  \(author.role.padding(toLength: 10, withPad: " ", startingAt: 0))  \(author.deltas) deltas, head #\(author.headSeq)")
        }
        Output.line("Digest:     \(digest)")
    }
}
