public import MusterCore
public import MusterCrypto

/// What a kiosk says of itself to the fleet (`muster fleet`, and `muster lock` before it signs a
/// lock some kiosk could not read): its software, what it reads, its printer and its free disk.
///
/// Signed by the kiosk's own key over the venue, so a relay cannot change it and another venue's
/// status is no status here; it is a report, not a record: kept in memory, newest per kiosk, never in
/// the replica or its digest. It travels in sync sessions (``SignedKioskStatus``) only to peers that
/// showed they read it, since a kiosk of 0.6.3 or earlier closes a session on a message it does not know.
public struct KioskStatus: ByteCodable, Sendable, Equatable {
    /// The package version this code is (`packaging/changelog`'s first entry; a test holds them equal).
    public static let software = "0.6.7"
    /// What a kiosk that has sent no status (0.6.4 or earlier, or one not heard) is taken to read:
    /// the kinds of 0.6.3 (kind 14 came with 0.6.4, which cannot say so) and the lock features every
    /// version since the screen's language on the lock reads.
    public static let silentKinds: [UInt8] = Array(1...12)
    public static let silentLockFeatures = ["door-rules-v1", "door-rules-v2", "screen-language"]

    public var kiosk: AuthorID
    public var software: String
    /// The delta kinds this kiosk reads (``DeltaKind``'s raw values).
    public var kinds: [UInt8]
    /// What of the organizer's encodings it reads: a lock's (``LockPayload/features``) and, since
    /// 0.6.6, an attendee's details (``AttendeeDetails/feature``). The name is the wire's.
    public var lockFeatures: [String]

    /// Every feature this code reads (``lockFeatures``).
    public static let readableFeatures = LockPayload.readableFeatures + [AttendeeDetails.feature]
    /// The badge printer in words: "none" (no queue configured), or the queue and its state.
    public var printer: String
    /// Free bytes on the state directory's file system.
    public var freeDiskBytes: UInt64
    /// Wall-clock milliseconds when the kiosk signed it: a newer one replaces an older one.
    public var signedMillis: UInt64

    public init(
        kiosk: AuthorID,
        software: String = KioskStatus.software,
        kinds: [UInt8] = DeltaKind.allCases.map(\.rawValue),
        lockFeatures: [String] = KioskStatus.readableFeatures,
        printer: String,
        freeDiskBytes: UInt64,
        signedMillis: UInt64
    ) {
        self.kiosk = kiosk
        self.software = software
        self.kinds = kinds
        self.lockFeatures = lockFeatures
        self.printer = printer
        self.freeDiskBytes = freeDiskBytes
        self.signedMillis = signedMillis
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(kiosk, software)
        writer.writeBlob(kinds)
        writer.writeList(lockFeatures)
        writer.write(printer, freeDiskBytes, signedMillis)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        kiosk = try reader.read()
        software = try reader.readString(maxLength: 32)
        kinds = try reader.readBlob(maxLength: 255)
        lockFeatures = try reader.readList(in: 0...32, "too many lock features")
        printer = try reader.readString(maxLength: 200)
        freeDiskBytes = try reader.read()
        signedMillis = try reader.read()
    }

    /// Of `features` (a lock's, ``LockPayload/features``), those a kiosk that said `readable` in its
    /// status cannot read; nil `readable` is a kiosk that sent no status, taken to read what 0.6.4 did.
    public static func unreadable(_ features: [String], by readable: [String]?) -> [String] {
        let reads = Set(readable ?? silentLockFeatures)
        return features.filter { !reads.contains($0) }
    }

    /// Of `kinds`, those a kiosk that said `readable` cannot read, by name; nil `readable` is a kiosk
    /// that sent no status, taken to read ``silentKinds``.
    public static func unreadable(kinds: [DeltaKind], by readable: [UInt8]?) -> [String] {
        let reads = Set(readable ?? silentKinds)
        return kinds.filter { !reads.contains($0.rawValue) }.map { "\($0) deltas (kind \($0.rawValue))" }
    }

    /// Whether this status, just taken, is worth signing and sending after `previous`, the last one
    /// sent: it is the first, its printer's words or software changed, its free disk moved by 1/32 of
    /// the last figure or more (finer as the disk fills), or `refreshMillis` passed since `previous`
    /// was signed (or the wall clock went back). A kiosk takes its status every 30 s but sends an
    /// unchanged one only at the refresh: statuses relayed every 30 s were a quarter of an idle
    /// kiosk's traffic to each peer (BENCHMARKS.md, idle traffic), and none of it news.
    public func isNews(after previous: KioskStatus?, refreshMillis: UInt64) -> Bool {
        guard let previous else { return true }
        if printer != previous.printer || software != previous.software || kinds != previous.kinds
            || lockFeatures != previous.lockFeatures
        {
            return true
        }
        let moved =
            freeDiskBytes > previous.freeDiskBytes
            ? freeDiskBytes - previous.freeDiskBytes : previous.freeDiskBytes - freeDiskBytes
        if moved > 0 && moved >= previous.freeDiskBytes / 32 { return true }
        return signedMillis < previous.signedMillis || signedMillis - previous.signedMillis >= refreshMillis
    }

    /// Signed by `keyPair` (which must be ``kiosk``'s) for `venue`.
    public func signed(by keyPair: SigningKeyPair, venue: VenueID) -> SignedKioskStatus {
        var writer = ByteWriter()
        encode(into: &writer)
        let body = writer.bytes
        return SignedKioskStatus(body: body, signature: keyPair.sign(Self.signedBytes(body, venue: venue)))
    }

    /// What the signature covers: a domain of its own (no delta or handshake signature can pass
    /// for a status), the venue, the status.
    static func signedBytes(_ body: [UInt8], venue: VenueID) -> [UInt8] {
        Array("muster kiosk status v1".utf8) + venue.bytes + body
    }
}

/// A ``KioskStatus`` as its kiosk signed it: the bytes it signed and the signature.
public struct SignedKioskStatus: ByteCodable, Sendable, Equatable {
    public let body: [UInt8]
    public let signature: [UInt8]

    public static let maxBodyBytes = 1_024

    init(body: [UInt8], signature: [UInt8]) {
        self.body = body
        self.signature = signature
    }

    public func encode(into writer: inout ByteWriter) {
        writer.writeBlob(body)
        writer.writeBlob(signature)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        body = try reader.readBlob(maxLength: Self.maxBodyBytes)
        signature = try reader.readBlob(maxLength: SigningKeyPair.signatureByteCount)
    }

    /// The status, if its kiosk signed it for `venue`; nil for anything else (a malformed body, a
    /// signature by another key or for another venue).
    public func verified(venue: VenueID) -> KioskStatus? {
        var reader = ByteReader(body)
        guard let status = try? KioskStatus(from: &reader), reader.remaining == 0,
            let key = try? SigningPublicKey(bytes: status.kiosk.bytes),
            key.isValidSignature(signature, for: KioskStatus.signedBytes(body, venue: venue))
        else { return nil }
        return status
    }
}
