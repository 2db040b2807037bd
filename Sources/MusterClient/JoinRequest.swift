import MusterCore
public import MusterCrypto

/// What a new kiosk asks to be enrolled with: its public key, name and location, signed with the
/// key itself (so a mistyped or altered request is refused rather than enrolling a key nobody holds).
///
/// Written as `MUSTER-REQ1:` followed by base32, short enough for a small QR code. It holds nothing
/// secret.
public struct JoinRequest: Sendable, Equatable {
    public static let prefix = "MUSTER-REQ1:"
    public let kiosk: SigningPublicKey
    public let name: String
    public let location: String

    private func signedPart() -> [UInt8] {
        var writer = ByteWriter()
        writer.write("muster-join-request-v1")
        writer.writeRaw(kiosk.bytes)
        writer.write(name)
        writer.write(location)
        return writer.bytes
    }

    /// The request text, signed by the kiosk's key.
    public func encode(signedBy keyPair: SigningKeyPair) -> String {
        precondition(keyPair.publicKey == kiosk, "a join request is signed by the kiosk's own key")
        let body = signedPart()
        return Self.prefix + Base32.encode(body + keyPair.sign(body))
    }

    /// Parses and checks a request; throws a message a person can act on.
    public static func decode(_ text: String) throws(ClientError) -> JoinRequest {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.uppercased().hasPrefix(prefix) else {
            throw ClientError(.usage, "not a join request (it should start with \(prefix))")
        }
        guard let bytes = Base32.decode(trimmed.dropFirst(prefix.count)),
            bytes.count > SigningKeyPair.signatureByteCount
        else {
            throw ClientError(.usage, "the join request is damaged (not valid base32); copy it again")
        }
        let body = Array(bytes.dropLast(SigningKeyPair.signatureByteCount))
        let signature = Array(bytes.suffix(SigningKeyPair.signatureByteCount))
        var reader = ByteReader(body)
        let version: String
        let request: JoinRequest
        do {
            version = try reader.readString(maxLength: 64)
            let key = try SigningPublicKey(bytes: try reader.readRaw(count: SigningPublicKey.byteCount))
            request = JoinRequest(
                kiosk: key,
                name: try reader.readString(maxLength: 128),
                location: try reader.readString(maxLength: 128)
            )
            try reader.expectEnd()
        } catch {
            throw ClientError(.usage, "the join request is damaged; copy it again")
        }
        guard version == "muster-join-request-v1" else { throw ClientError(.usage, "unsupported join request version") }
        guard request.kiosk.isValidSignature(signature, for: body) else {
            throw ClientError(.usage, "the join request's signature does not verify; copy it again")
        }
        return request
    }
}
