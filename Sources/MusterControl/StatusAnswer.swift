public import MusterRules

/// `status` to staff: who the daemon is and how its peers stand.
public struct StatusAnswer: Sendable, Equatable {
    public var kioskName: String
    /// The kiosk's public key, hex.
    public var kioskKey: String
    /// Peers in session: "publickeyhex@address".
    public var peers: [String]
    /// Each peer in session with how far apart the replicas are.
    public var peerDetails: [PeerDetail]
    /// The venue network key's generation the daemon dials with (0 until a revocation rotates it); nil
    /// from a daemon older than key rotation.
    public var keyGeneration: UInt64?
    /// Whether the kiosk works alone, and since when (nil: it hears its peers, or a daemon older than 0.6.3).
    public var solitude: Solitude?
    /// When each peer kiosk was last heard since the daemon started (key hex -> Unix milliseconds), for
    /// `muster fleet`; nil from a daemon older than 0.6.4.
    public var heardMillis: [String: UInt64]?
    /// Every kiosk's newest signed status the daemon holds, its own included, for `muster fleet` and
    /// `muster lock`; nil from a daemon older than 0.6.5.
    public var fleet: [FleetStatus]?

    public init(
        kioskName: String,
        kioskKey: String,
        peers: [String],
        peerDetails: [PeerDetail],
        keyGeneration: UInt64?,
        solitude: Solitude? = nil,
        heardMillis: [String: UInt64]? = nil,
        fleet: [FleetStatus]? = nil
    ) {
        self.fleet = fleet
        self.kioskName = kioskName
        self.kioskKey = kioskKey
        self.peers = peers
        self.peerDetails = peerDetails
        self.keyGeneration = keyGeneration
        self.solitude = solitude
        self.heardMillis = heardMillis
    }
}

extension StatusAnswer: ControlResponseFields {
    /// A daemon older than 0.5 sent no peer details: read as none.
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        kioskName = try fields.decode(String.self, forKey: .kioskName)
        kioskKey = try fields.decode(String.self, forKey: .kioskKey)
        peers = try fields.decode([String].self, forKey: .peers)
        peerDetails = try fields.decodeIfPresent([PeerDetail].self, forKey: .peerDetails) ?? []
        keyGeneration = try fields.decodeIfPresent(UInt64.self, forKey: .keyGeneration)
        solitude = try fields.decodeIfPresent(Solitude.self, forKey: .solitude)
        heardMillis = try fields.decodeIfPresent([String: UInt64].self, forKey: .heardMillis)
        fleet = try fields.decodeIfPresent([FleetStatus].self, forKey: .fleet)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(kioskName, forKey: .kioskName)
        try fields.encode(kioskKey, forKey: .kioskKey)
        try fields.encode(peers, forKey: .peers)
        try fields.encode(peerDetails, forKey: .peerDetails)
        try fields.encodeIfPresent(keyGeneration, forKey: .keyGeneration)
        try fields.encodeIfPresent(solitude, forKey: .solitude)
        try fields.encodeIfPresent(heardMillis, forKey: .heardMillis)
        try fields.encodeIfPresent(fleet, forKey: .fleet)
    }
}
