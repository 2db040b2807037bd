/// The control socket protocol: one JSON object per line each way, request then response.
///
/// `muster` uses it for every write; reads go straight to the replica. Requests are small flat
/// structs so that a shell script with `socat` can speak it too.
public struct ControlRequest: Codable, Sendable, Equatable {
    public enum Operation: String, Codable, Sendable {
        case checkIn = "checkin"
        case checkOut = "checkout"
        case register
        case note
        case head
        case submit
        case status
        case ping
    }

    public var op: Operation
    /// Email or ticket code, as typed or scanned.
    public var query: String?
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var company: String?
    /// For `note`: the attendee key returned by a check-in.
    public var attendeeKey: String?
    public var text: String?
    /// For `head`: the author whose head is asked for (hex public key).
    public var author: String?
    /// For `submit`: signed deltas built by the organizer's `muster`.
    public var deltas: [WireDelta]?

    public init(op: Operation) { self.op = op }
}

/// A signed delta in JSON: hex envelope and signature.
public struct WireDelta: Codable, Sendable, Equatable {
    public var envelope: String
    public var signature: String

    public init(envelope: String, signature: String) {
        self.envelope = envelope
        self.signature = signature
    }
}

/// The answer to one ``ControlRequest``.
public struct ControlResponse: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        case checkedIn = "checked_in"
        case alreadyCheckedIn = "already_checked_in"
        case checkedOut = "checked_out"
        case notCheckedIn = "not_checked_in"
        case registered
        case noted
        case notFound = "not_found"
        /// Refused by policy: no lock, outside the window, ticket not valid.
        case refused
        case head
        case submitted
        case status
        case pong
        /// The request could not be carried out (bad request, disk full, invalid deltas).
        case error
    }

    public var outcome: Outcome
    public var message: String?
    public var attendee: AttendeeSummary?
    /// The check-in shown for this attendee (the earliest), when there is one.
    public var checkIn: PresenceSummary?
    public var ticket: String?
    public var headSeq: UInt64?
    public var headHash: String?
    public var applied: Int?
    public var kioskName: String?
    public var kioskKey: String?
    /// Peers in session: "publickeyhex@address".
    public var peers: [String]?
    /// Each peer in session with how far apart the replicas are (`status` only).
    public var peerDetails: [PeerDetail]?

    public init(outcome: Outcome, message: String? = nil) {
        self.outcome = outcome
        self.message = message
    }
}

/// What a kiosk may show about an attendee: their own name and company, never anyone else's data.
public struct AttendeeSummary: Codable, Sendable, Equatable {
    public var campaignID: String
    public var key: String
    public var firstName: String
    public var lastName: String
    public var company: String
    public var ticket: String?

    public init(campaignID: String, key: String, firstName: String, lastName: String, company: String, ticket: String?) {
        self.campaignID = campaignID
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
    }
}

/// When and where a check-in happened.
public struct PresenceSummary: Codable, Sendable, Equatable {
    public var atMillis: UInt64
    public var kioskName: String
    public var location: String

    public init(atMillis: UInt64, kioskName: String, location: String) {
        self.atMillis = atMillis
        self.kioskName = kioskName
        self.location = location
    }
}

/// One peer in session, as the daemon sees it (for `muster status`).
public struct PeerDetail: Codable, Sendable, Equatable {
    public var key: String
    public var name: String
    public var location: String
    public var address: String
    public var lastSeenMillis: UInt64
    /// Deltas this kiosk holds that the peer lacks.
    public var behind: Int
    /// Deltas the peer holds that this kiosk lacks.
    public var ahead: Int
    /// Whether the peer's last announced digest equals this kiosk's (nil: not announced yet).
    public var digestMatches: Bool?
    /// Deltas the peer sent in this session, and how many this kiosk already held (nil from a
    /// daemon older than 0.5).
    public var deltasReceived: Int?
    public var copiesReceived: Int?

    public init(
        key: String, name: String, location: String, address: String, lastSeenMillis: UInt64, behind: Int, ahead: Int,
        digestMatches: Bool?, deltasReceived: Int? = nil, copiesReceived: Int? = nil
    ) {
        self.deltasReceived = deltasReceived
        self.copiesReceived = copiesReceived
        self.key = key
        self.name = name
        self.location = location
        self.address = address
        self.lastSeenMillis = lastSeenMillis
        self.behind = behind
        self.ahead = ahead
        self.digestMatches = digestMatches
    }
}
