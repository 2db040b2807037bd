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

    public init(kioskName: String, kioskKey: String, peers: [String], peerDetails: [PeerDetail], keyGeneration: UInt64?)
    {
        self.kioskName = kioskName
        self.kioskKey = kioskKey
        self.peers = peers
        self.peerDetails = peerDetails
        self.keyGeneration = keyGeneration
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
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(kioskName, forKey: .kioskName)
        try fields.encode(kioskKey, forKey: .kioskKey)
        try fields.encode(peers, forKey: .peers)
        try fields.encode(peerDetails, forKey: .peerDetails)
        try fields.encodeIfPresent(keyGeneration, forKey: .keyGeneration)
    }
}
