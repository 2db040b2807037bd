import Foundation
import MusterControl
import MusterCore
import MusterCrypto
public import MusterRules
import MusterTime

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
    /// Why musterd stopped after a revocation and kept its data (its `STOPPED` marker), if it did.
    public let stoppedAfterRevocation: String?
    /// Peer kiosks in session now ("publickeyhex@address").
    public let peers: [String]
    public let campaign: String?
    public let lockVersion: UInt64?
    public let checkInStatus: String?
    /// The language the lock sets for every kiosk screen (issue 14); nil when it sets none.
    public let lockLanguage: String?
    public let attendees: Int
    public let checkedIn: Int
    public let walkIns: Int
    public let inside: Int
    public let forks: Int
    /// Once-only things admitted twice by doors cut off from each other (`muster report conflicts`).
    public let conflicts: Int
    public let clockWarnings: Int
    public let authors: [Author]
    public let digest: String
    /// The venue network key generation the daemon dials with (nil: daemon not running).
    public let keyGeneration: UInt64?
    /// Each peer in session: address, last seen, how far behind or ahead, digest match.
    public let peerDetails: [PeerDetail]
    /// When this report was made (Unix milliseconds), for "last seen" ages.
    public let madeAtMillis: UInt64
    /// Inside / capacity per zone and venue-wide (issue 16); nil when the replica could not say.
    public let occupancy: Occupancy?
    /// Whether the kiosk works alone (no other kiosk, or none of its zone, heard for 10 s), and since when.
    public let solitude: Solitude?
    /// This kiosk's own check-ins no other kiosk is known to hold yet (nil: the daemon did not say who
    /// this kiosk is).
    public let savedHereOnly: SavedHereOnly?

    /// - Parameters:
    ///   - location: the certificate's location, the kiosk's zone (the config's when nil).
    ///   - daemonRunning: musterd answered (`daemon` is nil when its answer was not a status, e.g. a refusal).
    init(
        config: KioskConfig,
        location enrolled: String? = nil,
        organizer: AuthorID,
        daemonRunning: Bool,
        daemon: StatusAnswer?,
        status: ReplicaStatus,
        occupancy: Occupancy? = nil,
        devices: Set<AuthorID> = [],
        savedHereOnly: SavedHereOnly? = nil,
        madeAtMillis: UInt64
    ) {
        self.savedHereOnly = savedHereOnly
        self.occupancy = occupancy
        kiosk = config.name
        location = enrolled ?? config.location
        kioskKey = daemon?.kioskKey
        fingerprint = daemon.flatMap { try? SigningPublicKey(hex: $0.kioskKey) }?.fingerprint
        self.daemonRunning = daemonRunning
        stoppedAfterRevocation = (try? String(contentsOfFile: config.stoppedMarkerPath, encoding: .utf8))
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        peers = daemon.map(\.peers) ?? []
        campaign = status.lock?.campaignID == nil ? nil : (status.lock?.campaignName ?? status.lock?.campaignID)
        lockVersion = status.lock?.version
        checkInStatus = status.lock?.campaignID == nil ? nil : status.lock?.checkInStatus
        lockLanguage = status.lock?.campaignID == nil ? nil : status.lock?.language
        attendees = status.attendees
        checkedIn = status.checkedIn
        walkIns = status.walkIns
        inside = status.inside
        forks = status.forks
        conflicts = status.conflicts
        clockWarnings = status.clockWarnings
        let kioskHex = daemon?.kioskKey
        authors = status.authors.map { count in
            let hex = count.author.hex
            let role =
                hex == kioskHex
                ? "this kiosk"
                : count.author == organizer
                    ? "organizer" : devices.contains(count.author) ? "organizer device" : "kiosk"
            return Author(author: hex, role: role, deltas: count.deltas, headSeq: count.headSeq)
        }
        digest = status.digest
        keyGeneration = daemon?.keyGeneration
        peerDetails = daemon.map(\.peerDetails) ?? []
        solitude = daemon?.solitude
        self.madeAtMillis = madeAtMillis
    }

    /// One line per peer, e.g. `k2 (Hall B)  10.0.0.2:7420  seen 0.4 s ago  in sync, digest equal`.
    func peerLines() -> [String] {
        peerDetails.map { peer in
            let age = Double(madeAtMillis > peer.lastSeenMillis ? madeAtMillis - peer.lastSeenMillis : 0) / 1000
            var sync: String
            switch (peer.behind, peer.ahead) {
            case (0, 0): sync = "in sync"
            case (let behind, 0): sync = "behind by \(behind) delta(s)"
            case (0, let ahead): sync = "ahead by \(ahead) delta(s)"
            case (let behind, let ahead): sync = "behind by \(behind), ahead by \(ahead) delta(s)"
            }
            switch peer.digestMatches {
            case true?: sync += ", digest equal"
            case false?: sync += ", digest differs"
            case nil: sync += ", digest not yet known"
            }
            if let received = peer.deltasReceived, let copies = peer.copiesReceived {
                sync += ", \(received) delta(s) received (\(copies) already held)"
            }
            let name = peer.name + (peer.location.isEmpty ? "" : " (\(peer.location))")
            return "  \(name)  \(peer.address)  seen \(String(format: "%.1f", age)) s ago  \(sync)"
        }
    }

    public func print() {
        Output.data("Kiosk:      \(kiosk)\(location.isEmpty ? "" : " (\(location))")")
        Output.line("Key:        \(fingerprint ?? "unknown (musterd not reachable)")")
        if let stoppedAfterRevocation {
            Output.data("STOPPED after a revocation, every file kept: \(stoppedAfterRevocation)")
        }
        Output.data(
            "Lock:       \(campaign.map { "\($0), v\(lockVersion ?? 0), status '\(checkInStatus ?? "")'\(lockLanguage.map { ", screens in \($0)" } ?? "")" } ?? "none (waiting for the organizer)")"
        )
        Output.line("Peers:      \(peers.isEmpty ? "none" : "\(peers.count) in session")")
        if let solitude {
            Output.data(
                "ALONE:      " + solitude.line(time: ClockText.time(millis: Int64(clamping: solitude.sinceMillis)))
            )
        }
        if let savedHereOnly, savedHereOnly.checkIns > 0 {
            Output.data(
                "SAVED HERE: "
                    + savedHereOnly.line { ClockText.time(millis: Int64(clamping: $0)) }
            )
        }
        for line in peerLines() { Output.data(line) }
        Output.line("Attendees:  \(attendees)  checked in: \(checkedIn)  walk-ins: \(walkIns)  inside: \(inside)")
        if let occupancy, !occupancy.zones.isEmpty {
            for line in OccupancyText.lines(occupancy) { Output.data("  " + line) }
        }
        if conflicts > 0 {
            Output.line(
                "CONFLICTS:  \(conflicts) admitted twice by doors that had not heard each other (muster report conflicts)"
            )
        }
        if forks > 0 {
            Output.line(
                "WARNING:    \(forks) fork(s) detected: an author signed two different deltas with the same seq"
            )
        }
        if clockWarnings > 0 {
            Output.line("WARNING:    \(clockWarnings) delta(s) stamped too far ahead of this kiosk's clock")
        }
        Output.line("Deltas by author:")
        for author in authors {
            Output.line(
                "  \(author.author.prefix(16))…  \(author.role.padding(toLength: 10, withPad: " ", startingAt: 0))  \(author.deltas) deltas, head #\(author.headSeq)"
            )
        }
        Output.line("Digest:     \(digest)")
        if let keyGeneration { Output.line("Network key: generation \(keyGeneration)") }
    }
}
