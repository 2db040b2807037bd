import Foundation
public import MusterRules

/// One scan as pretix's check-in RPC (`POST /api/v1/organizers/{o}/checkinrpc/redeem/`) takes it:
/// a check-in or check-out a door recorded, for the ticket pretix issued (its secret), at the time the
/// door recorded it. pretix keeps one check-in per nonce (it answers a repeated nonce `ok` and records
/// nothing), so the nonce is the delta's own hash: a second push, from this kiosk or any other that
/// holds the same deltas, adds nothing. `force`: the door decided offline and its decision stands,
/// so pretix records the entry even when it would have refused it (already inside, say).
public struct PretixRedeem: Codable, Sendable, Equatable {
    public let secret: String
    public let lists: [Int]
    /// `entry` or `exit`.
    public let type: String
    /// ISO 8601 in UTC with milliseconds: the door's time.
    public let datetime: String
    public let force: Bool
    /// The delta's BLAKE2b-256 in hex (64 characters; pretix stores up to 190).
    public let nonce: String
    public let ignoreUnpaid: Bool
    public let questionsSupported: Bool

    enum CodingKeys: String, CodingKey {
        case secret, lists, type, datetime, force, nonce
        case ignoreUnpaid = "ignore_unpaid"
        case questionsSupported = "questions_supported"
    }

    public init(secret: String, list: Int, type: String, atMillis: UInt64, nonce: String) {
        self.secret = secret
        lists = [list]
        self.type = type
        datetime = Self.utc(millis: atMillis)
        force = true
        self.nonce = nonce
        ignoreUnpaid = false
        questionsSupported = false
    }

    /// The scans of `entries` (the replica's presence log, oldest first) that pretix knows the ticket
    /// of: every check-in and check-out of an attendee imported with a ticket (pretix's secret). A
    /// walk-in's registration has no pretix ticket and stays Muster's (it is a lead).
    public static func scans(_ entries: [PresenceLogEntry], list: Int) -> [PretixRedeem] {
        entries.compactMap { entry in
            let presence = entry.presence
            guard presence.kind == .checkIn || presence.kind == .checkOut,
                let secret = entry.attendee?.ticket, let hash = presence.hash
            else { return nil }
            return PretixRedeem(
                secret: secret,
                list: list,
                type: presence.kind == .checkOut ? "exit" : "entry",
                atMillis: presence.hlc.physicalMillis,
                nonce: hash.map { String(format: "%02x", $0) }.joined()
            )
        }
    }

    static func utc(millis: UInt64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }
}
