/// A signed delta in JSON: hex envelope and signature.
public struct WireDelta: Codable, Sendable, Equatable {
    public var envelope: String
    public var signature: String

    public init(envelope: String, signature: String) {
        self.envelope = envelope
        self.signature = signature
    }
}
