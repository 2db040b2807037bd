/// `pong`: the daemon answers, and says who it is.
public struct PongAnswer: Sendable, Equatable {
    public var kioskName: String
    /// The kiosk's public key, hex (how its commit trace names its own deltas).
    public var kioskKey: String
    /// Peers in session: "publickeyhex@address".
    public var peers: [String]

    public init(kioskName: String, kioskKey: String, peers: [String]) {
        self.kioskName = kioskName
        self.kioskKey = kioskKey
        self.peers = peers
    }
}

extension PongAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        kioskName = try fields.decode(String.self, forKey: .kioskName)
        kioskKey = try fields.decode(String.self, forKey: .kioskKey)
        peers = try fields.decode([String].self, forKey: .peers)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(kioskName, forKey: .kioskName)
        try fields.encode(kioskKey, forKey: .kioskKey)
        try fields.encode(peers, forKey: .peers)
    }
}
