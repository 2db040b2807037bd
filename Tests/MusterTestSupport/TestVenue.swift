public import MusterCore
public import MusterCrypto
public import MusterRules
public import MusterStore

/// A venue with real libsodium keys: the organizer and two kiosks, with the signers, replicas and
/// certificates the tests build from them.
public struct TestVenue: Sendable {
    public let organizerKey: SigningKeyPair
    public let kioskAKey: SigningKeyPair
    public let kioskBKey: SigningKeyPair
    public let policy: VenuePolicy

    public init() throws {
        organizerKey = try SigningKeyPair.generate()
        kioskAKey = try SigningKeyPair.generate()
        kioskBKey = try SigningKeyPair.generate()
        policy = VenuePolicy(venue: VenueID.random(), organizer: AuthorID(organizerKey.publicKey))
    }

    public var venue: VenueID { policy.venue }
    public var organizer: AuthorID { policy.organizer }
    public var kioskA: AuthorID { AuthorID(kioskAKey.publicKey) }
    public var kioskB: AuthorID { AuthorID(kioskBKey.publicKey) }

    public func key(of author: AuthorID) -> SigningKeyPair {
        switch author {
        case organizer: organizerKey
        case kioskA: kioskAKey
        default: kioskBKey
        }
    }

    /// A signer that starts a fresh log (or continues after `head`).
    public func signer(_ key: SigningKeyPair, venue: VenueID? = nil, head: AuthorHead? = nil) -> DeltaSigner {
        DeltaSigner(
            venue: venue ?? self.venue,
            keyPair: key,
            head: head ?? .empty(AuthorID(key.publicKey))
        )
    }

    /// Opens a replica with both kiosks on its roster (as their certificates would put them).
    public func openReplica(
        in directory: String,
        named name: String = "replica",
        enrolled: Bool = true,
        freeBytes: (@Sendable () -> UInt64?)? = nil
    ) throws -> Replica {
        let replica = try Replica.open(path: directory + "/" + name + ".sqlite", policy: policy, freeBytes: freeBytes)
        if enrolled {
            for (key, name) in [(kioskAKey, "Kiosk A"), (kioskBKey, "Kiosk B")] {
                try replica.admitCertificate(certificate(for: key, name: name), for: AuthorID(key.publicKey))
            }
        }
        return replica
    }

    /// The organizer's first two deltas: `campaign` created and every kiosk locked to it, with the
    /// member status ``Bodies`` writes (a presence counts only in a campaign the organizer locked).
    public func lockDeltas(_ campaign: String, status: String = "Attended") -> [SignedDelta] {
        var organizer = signer(organizerKey)
        do {
            return [
                try organizer.sign(
                    .campaign(CampaignPayload(campaignID: campaign, name: campaign)),
                    hlc: HLC(physicalMillis: TestTime.start - 2_000, logical: 0)
                ),
                try organizer.sign(
                    .lock(LockPayload(version: 1, campaignID: campaign, checkInStatus: status)),
                    hlc: HLC(physicalMillis: TestTime.start - 1_000, logical: 0)
                ),
            ]
        } catch {
            preconditionFailure("fixture: the organizer's lock deltas do not sign: \(error)")
        }
    }

    /// The organizer's certificate enrolling a kiosk key.
    public func certificate(for key: SigningKeyPair, name: String) -> SignedDelta {
        VenuePolicy.certificate(
            venue: venue,
            organizer: organizerKey,
            payload: EnrollPayload(kiosk: AuthorID(key.publicKey), name: name, location: "Hall"),
            hlc: HLC(physicalMillis: TestTime.start, logical: 0)
        )
    }
}

extension Replica {
    /// Ingests with the test day's clock and the default clock bound.
    @discardableResult
    public func ingestAtTestTime(
        _ deltas: [SignedDelta],
        nowMillis: UInt64 = TestTime.start + 3_600_000,
        atomic: Bool = false
    ) throws(ReplicaError) -> IngestReport {
        try ingest(deltas, nowMillis: nowMillis, clockBoundMillis: TestTime.clockBound, atomic: atomic)
    }
}

extension Replica {
    /// Puts `kiosk` on the roster with the organizer's certificate stamped at `millis`, as the
    /// daemon does for its own key at start (its name and location are shown from there).
    public func enroll(
        _ kiosk: SigningKeyPair,
        venue: VenueID,
        organizer: SigningKeyPair,
        name: String,
        location: String,
        atMillis millis: UInt64
    ) throws {
        let id = AuthorID(kiosk.publicKey)
        try admitCertificate(
            VenuePolicy.certificate(
                venue: venue,
                organizer: organizer,
                payload: EnrollPayload(kiosk: id, name: name, location: location),
                hlc: HLC(physicalMillis: millis, logical: 0)
            ),
            for: id
        )
    }
}

extension DeltaSigner {
    /// Signs `body` stamped `offset` milliseconds into the test day (``TestTime/at(_:)``).
    public mutating func sign(_ body: DeltaBody, at offset: UInt64) throws -> SignedDelta {
        try sign(body, hlc: TestTime.at(offset))
    }
}

/// Runs `body` with a fresh ``TestVenue``, its replica (both kiosks enrolled) and the directory it
/// lives in, removed afterwards.
public func withTestReplica(_ body: (TestVenue, Replica, String) throws -> Void) throws {
    try withTemporaryDirectory { dir in
        let venue = try TestVenue()
        try body(venue, try venue.openReplica(in: dir), dir)
    }
}

extension DeltaSigner {
    /// Signs `bodies` in order, the first stamped `millis` and each next one a millisecond later.
    public mutating func sign(_ bodies: [DeltaBody], fromMillis millis: UInt64) throws -> [SignedDelta] {
        var signed: [SignedDelta] = []
        for (index, body) in bodies.enumerated() {
            signed.append(try sign(body, hlc: HLC(physicalMillis: millis + UInt64(index), logical: 0)))
        }
        return signed
    }

    /// A signer that starts `key`'s log from its beginning.
    public init(venue: VenueID, startingLogOf key: SigningKeyPair) {
        self.init(venue: venue, keyPair: key, head: .empty(AuthorID(key.publicKey)))
    }
}
