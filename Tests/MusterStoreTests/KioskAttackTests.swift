import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Issue 13, written as an attacker would: an enrolled kiosk's real key signs hostile deltas with the
/// real encoders, and each test asserts the honest outcome on the replica.
@Suite("Kiosk attacks on the replica")
struct KioskAttackTests {
    static let c = "devcon-2025"
    static let ada = "ada@example.com"

    /// The organizer's side: the campaign, Ada imported, every kiosk locked to the campaign.
    struct Venue {
        let venue: TestVenue
        let organizer: [SignedDelta]

        init() throws {
            venue = try TestVenue()
            var signer = venue.signer(venue.organizerKey)
            let start = TestTime.start
            organizer = [
                try signer.sign(
                    .campaign(CampaignPayload(campaignID: KioskAttackTests.c, name: "DevCon")),
                    hlc: HLC(physicalMillis: start, logical: 0)
                ),
                try signer.sign(
                    Bodies.attendee(
                        KioskAttackTests.c,
                        email: "Ada@Example.com",
                        first: "Ada",
                        last: "Lovelace",
                        company: "Analytical Engines",
                        ticket: "T-1815"
                    ),
                    hlc: HLC(physicalMillis: start + 1, logical: 0)
                ),
                try signer.sign(
                    .lock(LockPayload(version: 1, campaignID: KioskAttackTests.c, checkInStatus: "Attended")),
                    hlc: HLC(physicalMillis: start + 2, logical: 0)
                ),
            ]
        }

        /// A replica holding the organizer's deltas (and both kiosks' certificates).
        func replica(in dir: String, named name: String) throws -> Replica {
            let replica = try venue.openReplica(in: dir, named: name)
            #expect(try replica.ingestAtTestTime(organizer).rejected.isEmpty)
            return replica
        }
    }

    /// Kiosk A's log forked after its first delta (a check-in of Alan): two signers that both
    /// continue from it, as a kiosk equivocating with a copied key would.
    struct Fork {
        let common: SignedDelta
        var versionA: DeltaSigner
        var versionB: DeltaSigner

        init(_ venue: TestVenue, common offset: UInt64) throws {
            var chain = venue.signer(venue.kioskAKey)
            common = try chain.sign(KioskAttackTests.checkIn("alan@example.com"), at: offset)
            versionA = chain
            versionB = chain
        }

        /// Both versions of seq 2: Ada's check-in on version A, Eve's on version B, at the same stamp.
        mutating func seconds(at offset: UInt64) throws -> (SignedDelta, SignedDelta) {
            (
                try versionA.sign(KioskAttackTests.checkIn(KioskAttackTests.ada), at: offset),
                try versionB.sign(KioskAttackTests.checkIn("eve@example.com"), at: offset)
            )
        }
    }

    static func at(_ offset: UInt64) -> HLC { TestTime.at(offset) }

    /// A check-in of `key` in the campaign, at `kiosk`.
    static func checkIn(_ key: String, kiosk: String = "Kiosk A") -> DeltaBody { Bodies.checkIn(c, key, kiosk: kiosk) }

    /// A check-in with the presence exactly as given (the kiosk name, location and status a hostile kiosk chose).
    static func forgedCheckIn(kioskName: String, location: String, status: String) -> DeltaBody {
        .checkIn(
            CheckInPayload(
                PresencePayload(
                    campaignID: c,
                    attendeeKey: ada,
                    kioskName: kioskName,
                    location: location,
                    memberStatus: status
                )
            )
        )
    }

    /// Runs `body` with the organizer's side of a fresh venue, a replica named `name` holding it,
    /// and the directory the replicas live in.
    static func attack(named name: String = "honest", _ body: (Venue, Replica, String) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            let setup = try Venue()
            try body(setup, try setup.replica(in: dir, named: name), dir)
        }
    }

    static func ada(_ replica: Replica) throws -> AttendeeRecord? {
        try replica.view { try $0.lookup(campaignID: c, query: ada) }
    }

    static func registration(
        email: String,
        key: String? = nil,
        first: String,
        last: String,
        company: String
    )
        -> DeltaBody
    {
        var presence = Bodies.presence(c, EmailAddress.key(email), kiosk: "Kiosk A")
        if let key { presence.attendeeKey = key }
        return .registration(
            RegistrationPayload(
                presence: presence,
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: "W-EVIL0001"
            )
        )
    }

    // MARK: - A kiosk rewrites an attendee

    @Test func aRegistrationCannotRewriteAnImportedAttendee() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)

            // Ada's key, Eve's email: refused (a registration speaks only for its own email).
            let rewrite = try attacker.sign(
                Self.registration(email: "eve@evil.example", key: Self.ada, first: "Eve", last: "Mallory", company: ""),
                at: 60_000
            )
            let report = try replica.ingestAtTestTime([rewrite])
            #expect(report.rejected.map(\.code) == [.notAuthorized])
            #expect(report.applied.isEmpty)

            // Ada's own email with Eve's name, stamped after the import: the import's fields stand.
            var attacker2 = setup.venue.signer(setup.venue.kioskBKey)
            let walkIn = try attacker2.sign(
                Self.registration(email: "ADA@example.com ", first: "Eve", last: "Mallory", company: "Evil Corp"),
                at: 120_000
            )
            #expect(try replica.ingestAtTestTime([walkIn]).rejected.isEmpty)
            let ada = try #require(try Self.ada(replica))
            #expect(ada.displayName == "Ada Lovelace")
            #expect(ada.email == "Ada@Example.com")
            #expect(ada.company == "Analytical Engines")
            #expect(ada.ticket == "T-1815")
            #expect(ada.isInside)  // the walk-in did check her in: any kiosk may do that

            // Delivered before the import (a kiosk across a partition): the same state.
            let early = try setup.venue.openReplica(in: dir, named: "walk-in-first")
            #expect(try early.ingestAtTestTime([walkIn]).rejected.isEmpty)
            #expect(try early.ingestAtTestTime(setup.organizer).rejected.isEmpty)
            #expect(try Self.ada(early)?.displayName == "Ada Lovelace")
            #expect(try early.digest() == (try replica.digest()))
        }
    }

    // MARK: - A kiosk chooses facts that are not its to choose

    @Test func kioskNameAndLocationComeFromTheCertificate() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskBKey)
            let forged = try attacker.sign(
                Self.forgedCheckIn(kioskName: "Hall A", location: "VIP entrance", status: "Attended"),
                at: 60_000
            )
            #expect(try replica.ingestAtTestTime([forged]).rejected.isEmpty)
            let arrival = try #require(try Self.ada(replica)?.firstArrival)
            #expect(arrival.kioskName == "Kiosk B")
            #expect(arrival.location == "Hall")
            let log = try replica.presenceLog(campaignID: Self.c)
            #expect(log.map(\.presence.kioskName) == ["Kiosk B"])
        }
    }

    @Test func aBackdatedCheckInIsRefused() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)
            // "Checked in 1970-01-01 at kiosk Hall A": before the kiosk's certificate existed.
            let backdated = try attacker.sign(Self.checkIn(Self.ada), hlc: HLC(physicalMillis: 0, logical: 0))
            #expect(try replica.ingestAtTestTime([backdated]).rejected.map(\.code) == [.badTimestamp])
            #expect(try Self.ada(replica)?.isCheckedIn == false)
        }
    }

    @Test func aPresenceCountsOnlyInACampaignTheOrganizerLocked() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)
            let unlocked = try attacker.sign(Bodies.checkIn("secret-gala", Self.ada, kiosk: "Kiosk A"), at: 60_000)
            let wrongStatus = try attacker.sign(
                Self.forgedCheckIn(kioskName: "", location: "", status: "VIP"),
                at: 61_000
            )
            #expect(try replica.ingestAtTestTime([unlocked, wrongStatus]).rejected.isEmpty)
            #expect(try replica.view { try $0.presences(campaignID: "secret-gala", attendeeKey: Self.ada) }.isEmpty)
            #expect(try Self.ada(replica)?.isCheckedIn == false)
            #expect(try replica.status().checkedIn == 0)

            // Once the organizer locks the campaign, the check-in counts, whatever the order.
            var organizer = setup.venue.signer(
                setup.venue.organizerKey,
                head: try replica.head(of: setup.venue.organizer)
            )
            let lock = try organizer.sign(
                .lock(LockPayload(version: 2, campaignID: "secret-gala", checkInStatus: "Attended")),
                at: 90_000
            )
            #expect(try replica.ingestAtTestTime([lock]).rejected.isEmpty)
            #expect(try replica.view { try $0.presences(campaignID: "secret-gala", attendeeKey: Self.ada) }.count == 1)
            let other = try setup.venue.openReplica(in: dir, named: "lock-first")
            try other.ingestAtTestTime(setup.organizer + [lock])
            try other.ingestAtTestTime([unlocked, wrongStatus])
            #expect(try other.digest() == (try replica.digest()))
        }
    }

    @Test func textIsSanitizedAndBoundedWhenStored() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)
            let walkIn = try attacker.sign(
                Self.registration(
                    email: "mallory@evil.example",
                    first: "\u{1B}[2J\u{1B}]0;owned\u{07}Mal\u{202E}lory\u{9B}31m",
                    last: "M\nM",
                    company: String(repeating: "x", count: 4_000)
                ),
                at: 60_000
            )
            let note = try attacker.sign(
                .note(
                    NotePayload(
                        campaignID: Self.c,
                        attendeeKey: "mallory@evil.example",
                        text: "hi\u{1B}[31m" + String(repeating: "y", count: 1_000)
                    )
                ),
                at: 61_000
            )
            #expect(try replica.ingestAtTestTime([walkIn, note]).rejected.isEmpty)
            let record = try #require(
                try replica.view { try $0.attendee(campaignID: Self.c, key: "mallory@evil.example") }
            )
            #expect(record.firstName == "Mallory")
            #expect(record.lastName == "M M")
            #expect(record.company.unicodeScalars.count == StoredText.maxFieldCharacters)
            let stored = try replica.presenceLog(campaignID: Self.c).compactMap(\.note)
            #expect(stored.first?.hasPrefix("hiyyy") == true)
            #expect(stored.first.map { $0.unicodeScalars.count <= Limits.maxNoteCharacters } == true)
        }
    }

    // MARK: - Time

    @Test func theMaximumTimestampIsRefusedAndCannotFreezeAnAttendee() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)
            let frozen = try attacker.sign(
                Self.checkIn(Self.ada),
                hlc: HLC(physicalMillis: HLC.maxPhysicalMillis, logical: .max)
            )
            #expect(try replica.ingestAtTestTime([frozen]).rejected.map(\.code) == [.badTimestamp])
            var attacker2 = setup.venue.signer(setup.venue.kioskAKey)
            let tenYears = try attacker2.sign(Self.checkIn(Self.ada), at: TestTime.tenYears)
            #expect(try replica.ingestAtTestTime([tenYears]).rejected.map(\.code) == [.badTimestamp])

            // Inside the certificate's window but far ahead: stored, and still ended by the honest
            // check-out that names it, which keeps this kiosk's own time.
            var attacker3 = setup.venue.signer(setup.venue.kioskAKey)
            let ahead = try attacker3.sign(Self.checkIn(Self.ada), at: VenuePolicy.certificateLifetimeMillis - 1)
            #expect(try replica.ingestAtTestTime([ahead]).rejected.isEmpty)
            #expect(try Self.ada(replica)?.isInside == true)
            let now = TestTime.start + 3_600_000
            let (result, checkOut) = try replica.appendLocal(
                keyPair: setup.venue.kioskBKey,
                nowMillis: now,
                nextHLC: { _ in HLC(physicalMillis: now, logical: 0) }
            ) { view in
                let record = try #require(try view.lookup(campaignID: Self.c, query: Self.ada))
                let ends = record.openArrivals.map(\.ref)
                let body = DeltaBody.checkOut(
                    CheckOutPayload(Bodies.presence(Self.c, record.key, kiosk: "Kiosk B"), ends: ends)
                )
                return .append(body, answer: ends)
            }
            #expect(result == [ahead.ref])
            #expect(try #require(checkOut).hlc < ahead.hlc)
            #expect(try Self.ada(replica)?.isInside == false)
            #expect(try replica.status().inside == 0)
            // Every replica reads the same from the same deltas.
            let peer = try setup.replica(in: dir, named: "peer")
            try peer.ingestAtTestTime([ahead, try #require(checkOut)])
            #expect(try peer.digest() == (try replica.digest()))
        }
    }

    @Test func timestampsMoveForwardAlongTheChain() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            var attacker = setup.venue.signer(setup.venue.kioskAKey)
            let first = try attacker.sign(Self.checkIn(Self.ada), at: 60_000)
            let back = try attacker.sign(Self.checkIn("bob@example.com"), at: 59_000)
            let same = try attacker.sign(Self.checkIn("eve@example.com"), at: 59_000)
            let report = try replica.ingestAtTestTime([first, back, same])
            #expect(report.applied == [first])
            #expect(report.rejected.map(\.code) == [.badTimestamp])
            #expect(try replica.head(of: setup.venue.kioskA).seq == 1)
            // In a later batch too.
            #expect(try replica.ingestAtTestTime([back, same]).rejected.map(\.code) == [.badTimestamp])
        }
    }

    @Test func aLocalWriteWhoseTimeCannotAdvanceIsRefused() throws {
        try KioskAttackTests.attack(named: "kiosk-a") { (setup, replica, dir) throws in
            let stamp = Self.at(60_000)
            func checkIn(_ key: String) -> (ReplicaView) throws -> LocalWrite<Bool> {
                { _ in .append(Self.checkIn(key), answer: true) }
            }
            let (_, first) = try replica.appendLocal(
                keyPair: setup.venue.kioskAKey,
                nowMillis: stamp.physicalMillis,
                nextHLC: { _ in stamp },
                checkIn(Self.ada)
            )
            #expect(first != nil)
            // A clock that cannot move past the last stamp (saturated, or running backwards).
            let error = thrownError { () throws(ReplicaError) in
                try replica.appendLocal(
                    keyPair: setup.venue.kioskAKey,
                    nowMillis: stamp.physicalMillis,
                    nextHLC: { _ in stamp },
                    checkIn("bob@example.com")
                )
            }
            #expect(error?.code == .badTimestamp)
            let beyond = thrownError { () throws(ReplicaError) in
                try replica.appendLocal(
                    keyPair: setup.venue.kioskAKey,
                    nowMillis: stamp.physicalMillis,
                    nextHLC: { _ in HLC(physicalMillis: HLC.maxPhysicalMillis, logical: 0) },
                    checkIn("bob@example.com")
                )
            }
            #expect(beyond?.code == .badTimestamp)
            #expect(try replica.head(of: setup.venue.kioskA).seq == 1)
        }
    }

    /// No NTP at a venue: a kiosk whose clock is ten minutes behind the organizer's laptop (which
    /// stamped its certificate) is handed its certificate as the floor and still writes.
    @Test func aKioskWhoseClockRunsBehindItsCertificateStillWrites() throws {
        try KioskAttackTests.attack(named: "kiosk-a") { (setup, replica, dir) throws in
            let behind = HLC(physicalMillis: TestTime.start - 600_000, logical: 0)
            var floors: [HLC?] = []
            let (_, delta) = try replica.appendLocal(
                keyPair: setup.venue.kioskAKey,
                nowMillis: behind.physicalMillis,
                nextHLC: { floor in
                    floors.append(floor)
                    // What `HybridLogicalClock.tick(after:)` does: past the floor, if it is ahead.
                    return floor.map { max(behind, HLC(packed: $0.packed + 1)) } ?? behind
                }
            ) { _ in .append(Self.checkIn(Self.ada), answer: true) }
            let stored = try #require(delta)
            #expect(floors.count == 1)
            #expect(stored.hlc == HLC(physicalMillis: TestTime.start, logical: 0))
            #expect(try Self.ada(replica)?.isInside == true)
        }
    }

    // MARK: - Equivocation

    /// Kiosk A sends version A of seq 2 to one replica and version B to another; each has its own
    /// continuation. Once they exchange, both cut kiosk A before seq 2 and agree.
    @Test func aForkIsCutTheSameWayOnEveryReplica() throws {
        try withTemporaryDirectory { (dir) throws in
            let setup = try Venue()
            let venue = setup.venue
            let one = try setup.replica(in: dir, named: "one")
            let two = try setup.replica(in: dir, named: "two")
            let bystander = try setup.replica(in: dir, named: "bystander")
            var honestB = venue.signer(venue.kioskBKey)
            let fromB = try honestB.sign(Self.checkIn("grace@example.com", kiosk: "Kiosk B"), at: 1_000)

            var fork = try Fork(venue, common: 2_000)
            let common = fork.common
            let (a2, b2) = try fork.seconds(at: 3_000)
            let a3 = try fork.versionA.sign(Self.checkIn("bob@example.com"), at: 4_000)
            let b3 = try fork.versionB.sign(Self.checkIn("carol@example.com"), at: 4_000)
            #expect(a2.seq == b2.seq && a2 != b2)

            #expect(try one.ingestAtTestTime([fromB, common, a2, a3]).rejected.isEmpty)
            #expect(try two.ingestAtTestTime([fromB, common, b2, b3]).rejected.isEmpty)
            #expect(try bystander.ingestAtTestTime([fromB, common]).rejected.isEmpty)
            #expect(try one.digest() != (try two.digest()))

            // One replica sees the other's version: it proves the fork and cuts before seq 2.
            let proved = try one.ingestAtTestTime([b2, b3])
            #expect(proved.rejected.map(\.code).contains(.fork))
            #expect(proved.newForks == [b2.ref])
            #expect(try one.head(of: venue.kioskA).seq == 1)
            // It passes the evidence on; the other replica, holding version B, makes the same cut.
            let heard = try two.ingestAtTestTime(proved.forkEvidence)
            #expect(heard.newForks == [a2.ref])
            #expect(try two.head(of: venue.kioskA).seq == 1)
            // A replica that held neither version makes the same cut from the evidence alone.
            let told = try bystander.ingestAtTestTime(proved.forkEvidence)
            #expect(told.newForks.count == 1)
            #expect(try bystander.head(of: venue.kioskA).seq == 1)

            let digest = try one.digest()
            #expect(try two.digest() == digest)
            #expect(try bystander.digest() == digest)
            for replica in [one, two, bystander] {
                #expect(try replica.deltas(of: venue.kioskA) == [common])
                #expect(try replica.status().forks == 1)
                // The cut kiosk's later deltas, either version, are refused everywhere.
                #expect(try replica.ingestAtTestTime([a2, a3, b2, b3]).applied.isEmpty)
                #expect(try replica.digest() == digest)
            }
            // A replica that holds one version and was away when the evidence went round offers it
            // to a replica that cut the kiosk: the answer carries the evidence, and it cuts too.
            let late = try setup.replica(in: dir, named: "late")
            #expect(try late.ingestAtTestTime([fromB, common, b2, b3]).rejected.isEmpty)
            let answer = try one.ingestAtTestTime([b2, b3])
            #expect(answer.applied.isEmpty)
            #expect(answer.forkEvidence.count == 2)
            #expect(try late.ingestAtTestTime(answer.forkEvidence).newForks == [a2.ref])
            #expect(try late.digest() == digest)
            // The honest kiosk is untouched.
            #expect(try one.deltas(of: venue.kioskB) == [fromB])
        }
    }

    /// However the two versions and the rest arrive, every replica ends in the same state.
    @Test func aForkConvergesInEveryDeliveryOrder() throws {
        try withTemporaryDirectory { (dir) throws in
            let setup = try Venue()
            let venue = setup.venue
            var fork = try Fork(venue, common: 2_000)
            let common = fork.common
            let (a2, b2) = try fork.seconds(at: 3_000)
            var honest = venue.signer(venue.kioskBKey)
            let honestLog = try (1...3).map { index in
                try honest.sign(Self.checkIn("guest\(index)@example.com", kiosk: "Kiosk B"), at: UInt64(index) * 1_000)
            }
            var digests: Set<String> = []
            for seed in UInt64(1)...12 {
                var rng = SplitMix64(seed: seed)
                let forkFirst = Bool.random(using: &rng)
                let kioskA = forkFirst ? [common, b2, a2] : [common, a2, b2]
                let order = Shuffle.interleave([setup.organizer, kioskA, honestLog], maxRun: 2, using: &rng)
                let replica = try venue.openReplica(in: dir, named: "seed-\(seed)")
                for batch in Shuffle.batches(order, maxBatch: 3, using: &rng) {
                    _ = try replica.ingestAtTestTime(batch)
                }
                #expect(try replica.head(of: venue.kioskA).seq == 1, "seed \(seed)")
                #expect(try replica.status().forks == 1, "seed \(seed)")
                digests.insert(try replica.digest())
            }
            #expect(digests.count == 1)
        }
    }

    @Test func forkEvidenceIsBoundedToTwoRowsPerSeq() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            let venue = setup.venue
            var original = venue.signer(venue.kioskAKey)
            let first = try original.sign(Self.checkIn(Self.ada), at: 1_000)
            #expect(try replica.ingestAtTestTime([first]).applied == [first])
            var newForks = 0
            for index in 0..<300 {
                var forker = venue.signer(venue.kioskAKey)
                let fork = try forker.sign(Self.checkIn("guest\(index)@example.com", kiosk: "Kiosk A"), at: 1_000)
                newForks += try replica.ingestAtTestTime([fork]).newForks.count
            }
            #expect(newForks == 1)  // one log line, not 300
            #expect(try replica.status().forks == 1)
            let rows = try replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fork_evidence") }
            #expect(rows == 2)
        }
    }
}

/// Undo and revocation name their target by hash, so both hit the same delta on every replica.
@Suite("Undo and revocation by hash")
struct NamedByHashTests {
    /// `muster revoke --before TIME`: the watermark is the last seq stamped (and received) before TIME
    /// (`InsiderAttackTests.aBackDatedDeltaReceivedAfterTheTimeIsBeyondTheWatermark` has the receipt).
    @Test func theWatermarkBeforeATimeIsTheLastSeqStampedBeforeIt() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            let venue = setup.venue
            var kiosk = venue.signer(venue.kioskAKey)
            let log = try (1...3).map { index in
                try kiosk.sign(
                    KioskAttackTests.checkIn("guest\(index)@example.com", kiosk: "Kiosk A"),
                    at: UInt64(index) * 1_000
                )
            }
            for delta in log { try replica.ingestAtTestTime([delta], nowMillis: delta.hlc.physicalMillis) }
            #expect(try replica.lastSeq(of: venue.kioskA, before: TestTime.start + 2_500) == 2)
            #expect(try replica.lastSeq(of: venue.kioskA, before: TestTime.start + 2_000) == 1)
            #expect(try replica.lastSeq(of: venue.kioskA, before: TestTime.start) == 0)
            #expect(try replica.deltaHash(of: venue.kioskA, seq: 2) == Blake2b.hash256(log[1].envelope))
        }
    }

    @Test func anUndoNamingAnotherVersionUndoesNothing() throws {
        try KioskAttackTests.attack(named: "honest") { (setup, replica, dir) throws in
            let venue = setup.venue
            var kiosk = venue.signer(venue.kioskAKey)
            let checkIn = try kiosk.sign(KioskAttackTests.checkIn(KioskAttackTests.ada), at: 1_000)
            try replica.ingestAtTestTime([checkIn])
            var organizer = venue.signer(venue.organizerKey, head: try replica.head(of: venue.organizer))
            let wrong = try organizer.sign(
                .undo(UndoPayload(target: checkIn.ref, targetHash: [UInt8](repeating: 1, count: 32))),
                at: 2_000
            )
            try replica.ingestAtTestTime([wrong])
            #expect(try KioskAttackTests.ada(replica)?.isCheckedIn == true)
            let record = try #require(try KioskAttackTests.ada(replica)?.firstArrival)
            #expect(record.hash == Blake2b.hash256(checkIn.envelope))
            let right = try organizer.sign(.undo(UndoPayload(target: checkIn.ref, targetHash: record.hash)), at: 3_000)
            try replica.ingestAtTestTime([right])
            #expect(try KioskAttackTests.ada(replica)?.isCheckedIn == false)
        }
    }

    /// The revocation names kiosk A's seq 2 by hash; a replica holding another version there keeps
    /// only seq 1, whether the revocation or that version arrives first.
    @Test func aWatermarkNamingAnotherVersionKeepsOnlyWhatPrecedesIt() throws {
        try withTemporaryDirectory { (dir) throws in
            let setup = try KioskAttackTests.Venue()
            let venue = setup.venue
            var fork = try KioskAttackTests.Fork(venue, common: 1_000)
            let first = fork.common
            let (a2, b2) = try fork.seconds(at: 2_000)
            var organizer = venue.signer(
                venue.organizerKey,
                head: AuthorHead(
                    author: venue.organizer,
                    seq: UInt64(setup.organizer.count),
                    hash: Blake2b.hash256(setup.organizer.last!.envelope)
                )
            )
            let revoke = try organizer.sign(
                .revoke(
                    RevokePayload(
                        kiosk: venue.kioskA,
                        watermark: 2,
                        keyGeneration: 1,
                        sealedKeys: [],
                        watermarkHash: Blake2b.hash256(a2.envelope)
                    )
                ),
                at: 5_000
            )
            let holdsA = try setup.replica(in: dir, named: "holds-a")
            try holdsA.ingestAtTestTime([first, a2, revoke])
            #expect(try holdsA.deltas(of: venue.kioskA) == [first, a2])

            let holdsB = try setup.replica(in: dir, named: "holds-b")
            try holdsB.ingestAtTestTime([first, b2])
            try holdsB.ingestAtTestTime([revoke])
            #expect(try holdsB.deltas(of: venue.kioskA) == [first])

            let revokedFirst = try setup.replica(in: dir, named: "revoked-first")
            try revokedFirst.ingestAtTestTime([revoke])
            let report = try revokedFirst.ingestAtTestTime([first, b2])
            #expect(report.applied == [first])
            #expect(report.rejected.map(\.code) == [.revoked])
            #expect(try revokedFirst.digest() == (try holdsB.digest()))
            // Once the watermark is lowered, version A is refused there too.
            #expect(try revokedFirst.ingestAtTestTime([a2]).applied.isEmpty)
        }
    }
}
