import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

@Suite("Replica ingest")
struct ReplicaIngestTests {
    @Test func logOrderIngestMaterializesTheScenario() throws {
        try withScenarioLog { (log, replica, dir) throws in
            for delta in log.all {
                let report = try replica.ingestAtTestTime([delta], nowMillis: log.now)
                #expect(report.applied == [delta])
                #expect(report.rejected.isEmpty)
                #expect(report.duplicates == 0)
                #expect(report.clockWarnings.isEmpty)
                #expect(report.newestAcceptedHLC == delta.hlc)
            }

            let status = try replica.status()
            #expect(status.lock?.version == 3)
            #expect(status.lock?.campaignID == ScenarioLog.campaign)
            #expect(status.lock?.campaignName == ScenarioLog.campaignName)
            #expect(status.lock?.checkInStatus == "Responded")
            #expect(status.lock?.opensAtMillis == Int64(TestTime.start))
            #expect(status.attendees == ScenarioLog.expectedAttendees)
            #expect(status.checkedIn == ScenarioLog.expectedCheckedIn)
            #expect(status.walkIns == ScenarioLog.expectedWalkIns)
            #expect(status.inside == ScenarioLog.expectedInside)
            #expect(status.forks == 0)
            #expect(status.clockWarnings == 0)
            #expect(status.digest == (try replica.digest()))
            #expect(status.digest.count == 64)

            let counts = Dictionary(uniqueKeysWithValues: status.authors.map { ($0.author, $0) })
            #expect(counts.count == 3)
            for author in log.authors {
                let own = log.deltas(of: author)
                #expect(counts[author]?.deltas == own.count)
                #expect(counts[author]?.headSeq == UInt64(own.count))
                let head = try replica.head(of: author)
                #expect(head.seq == UInt64(own.count))
                #expect(head.hash == Blake2b.hash256(own.last!.envelope))
                // Sign bytes, store bytes: what comes back out is exactly what went in.
                #expect(try replica.deltas(of: author) == own)
                #expect(try replica.deltas(of: author, after: 2, limit: 3) == Array(own[2..<5]))
                #expect(try replica.newestHLC(author: author) == own.last!.hlc)
            }
            #expect(try replica.heads().count == 3)
        }
    }

    /// Only the newest delta of each author's run has its own signature checked (the others are
    /// authenticated by the chain), and the report says which: the sync layer serves pages from
    /// memory only when they end on one.
    @Test func theReportNamesTheDeltasWhoseOwnSignatureWasChecked() throws {
        try withScenarioLog { (log, replica, _) throws in
            let report = try replica.ingestAtTestTime(log.all, nowMillis: log.now)
            #expect(report.applied.count == log.all.count)
            #expect(report.signatureChecked == Set(log.authors.map { log.deltas(of: $0).last!.ref }))
        }
    }

    @Test func unlockLeavesEveryCampaignInScope() throws {
        try withScenarioLog { (log, replica, dir) throws in
            // Everything up to (and including) the unlock, which is the organizer's second-to-last lock.
            let unlockIndex = log.all.firstIndex {
                guard case .lock(let lock) = try? $0.decode().body else { return false }
                return lock.version == 2
            }!
            try replica.ingestAtTestTime(Array(log.all[...unlockIndex]), nowMillis: log.now)
            let status = try replica.status()
            #expect(status.lock?.version == 2)
            #expect(status.lock?.campaignID == nil)
            // Unlocked, the counts span both campaigns: #0 is also a meetup attendee.
            #expect(status.attendees == ScenarioLog.expectedAttendees + 1)
        }
    }

    @Test func duplicateResendIsCountedAndChangesNothing() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let kioskA = log.deltas(of: venue.kioskA)
            try replica.ingestAtTestTime(Array(kioskA.prefix(4)), nowMillis: log.now)
            // A resend that overlaps what we have: the known part is duplicates, the rest applies.
            let overlap = try replica.ingestAtTestTime(kioskA, nowMillis: log.now)
            #expect(overlap.duplicates == 4)
            #expect(overlap.applied == Array(kioskA.dropFirst(4)))
            #expect(overlap.rejected.isEmpty)

            try replica.ingestAtTestTime(log.all, nowMillis: log.now)
            let before = try replica.status()
            let again = try replica.ingestAtTestTime(log.all.shuffled(), nowMillis: log.now)
            #expect(again.duplicates == log.all.count)
            #expect(again.applied.isEmpty)
            #expect(again.rejected.isEmpty)
            #expect(again.newestAcceptedHLC == nil)
            #expect(try replica.status() == before)
            // The same delta twice in one batch is stored once.
            let fresh = try venue.openReplica(in: dir, named: "fresh")
            let doubled = try fresh.ingestAtTestTime(kioskA + kioskA, nowMillis: log.now)
            #expect(doubled.applied == kioskA)
            #expect(doubled.rejected.isEmpty)
            #expect(try fresh.deltas(of: venue.kioskA) == kioskA)
        }
    }

    /// Peers' batches are committed without waiting for the disk; the writer connection must be
    /// back at FULL afterwards (local check-ins share it), also after a batch that threw.
    @Test func peerIngestIsNotFsyncedButLeavesTheWriterDurable() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let pool = try #require(replica.pool)
            let run = Array(log.deltas(of: venue.kioskA).prefix(5))
            let report = try replica.ingest(
                run,
                nowMillis: log.now,
                clockBoundMillis: TestTime.clockBound,
                durable: false
            )
            #expect(report.applied == run)
            #expect(try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
            var tampered = Array(log.deltas(of: venue.kioskA).prefix(8).dropFirst(5))
            tampered[1] = try tampered[1].flippingEnvelopeByte(at: tampered[1].envelope.count - 1)
            #expect(throws: ReplicaError.self) {
                try replica.ingest(
                    tampered,
                    nowMillis: log.now,
                    clockBoundMillis: TestTime.clockBound,
                    atomic: true,
                    durable: false
                )
            }
            #expect(try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
            #expect(try replica.head(of: venue.kioskA).seq == 5)
        }
    }

    @Test func tamperedMiddleDeltaRejectsTheWholeRun() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let run = Array(log.deltas(of: venue.kioskA).prefix(5))
            var tampered = run
            tampered[2] = try run[2].flippingEnvelopeByte(at: run[2].envelope.count - 1)
            let report = try replica.ingestAtTestTime(tampered, nowMillis: log.now)
            #expect(report.rejected.map(\.code) == [.brokenChain])
            #expect(report.rejected.first?.ref == run[3].ref)
            #expect(report.applied.isEmpty)
            #expect(try replica.head(of: venue.kioskA).seq == 0)
            #expect(try replica.deltas(of: venue.kioskA).isEmpty)
            #expect(try replica.status().authors.isEmpty)
            // The honest run is still accepted afterwards.
            #expect(try replica.ingestAtTestTime(run, nowMillis: log.now).applied == run)
        }
    }

    @Test func tamperedNewestDeltaOrSignatureRejectsTheWholeRun() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let empty = try replica.digest()
            let run = Array(log.deltas(of: venue.kioskA).prefix(5))
            for tamper in [
                try run[4].flippingEnvelopeByte(at: run[4].envelope.count - 2),
                try run[4].flippingSignatureByte(at: 0),
                try run[4].flippingSignatureByte(at: 63),
                try SignedDelta(envelope: run[4].envelope, signature: [UInt8](repeating: 0, count: 64)),
            ] {
                let report = try replica.ingestAtTestTime(Array(run.prefix(4)) + [tamper], nowMillis: log.now)
                #expect(report.rejected.map(\.code) == [.badSignature])
                #expect(report.applied.isEmpty)
                #expect(try replica.head(of: venue.kioskA).seq == 0)
                #expect(try replica.digest() == empty)
            }
        }
    }

    @Test func deltasAfterAGapAreRefused() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let run = log.deltas(of: venue.kioskA)
            let report = try replica.ingestAtTestTime([run[0], run[1], run[3]], nowMillis: log.now)
            #expect(report.rejected.map(\.code) == [.gap])
            #expect(report.rejected.first?.ref == run[3].ref)
            #expect(!report.applied.contains(run[3]))
            #expect(try replica.deltas(of: venue.kioskA).allSatisfy { $0.seq < 3 })
            // A run that starts past the head is a gap too.
            let ahead = try replica.ingestAtTestTime([run[5], run[6]], nowMillis: log.now)
            #expect(ahead.rejected.map(\.code) == [.gap])
            #expect(ahead.applied.isEmpty)
            // Once the missing deltas arrive the log is complete.
            try replica.ingestAtTestTime(Array(run.prefix(7)), nowMillis: log.now)
            #expect(try replica.deltas(of: venue.kioskA) == Array(run.prefix(7)))
        }
    }

    /// The deltas before a gap chain from the head and end in a signature that verifies, so they
    /// should be kept ("a refused delta also stops the rest of its author's run", not the start).
    @Test func deltasBeforeAGapAreKept() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let run = log.deltas(of: venue.kioskA)
            let report = try replica.ingestAtTestTime([run[0], run[1], run[3]], nowMillis: log.now)
            #expect(report.applied == [run[0], run[1]])
            let head = try replica.head(of: venue.kioskA)
            #expect(head.seq == 2)
        }
    }

    @Test func forkIsRefusedWithEvidenceAndTheOriginalKept() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let run = log.deltas(of: venue.kioskA)
            try replica.ingestAtTestTime(Array(run.prefix(2)), nowMillis: log.now)
            let digest = try replica.digest()

            // Kiosk A (its key stolen, or its disk restored from a backup) signs another seq 2.
            var forker = venue.signer(
                venue.kioskAKey,
                head: AuthorHead(author: venue.kioskA, seq: 1, hash: Blake2b.hash256(run[0].envelope))
            )
            let fork = try forker.sign(
                Bodies.checkIn(ScenarioLog.campaign, ScenarioLog.key(28), kiosk: "Kiosk A"),
                hlc: run[1].hlc
            )
            #expect(fork.seq == 2)
            #expect(fork != run[1])
            let forkNext = try forker.sign(
                Bodies.checkIn(ScenarioLog.campaign, ScenarioLog.key(27), kiosk: "Kiosk A"),
                hlc: run[2].hlc
            )

            // A "fork" whose signature does not verify is not evidence of anything.
            let forged = try fork.flippingSignatureByte(at: 5)
            #expect(try replica.ingestAtTestTime([forged], nowMillis: log.now).rejected.map(\.code) == [.badSignature])
            #expect(try replica.status().forks == 0)
            #expect(try replica.digest() == digest)

            // The real fork: both versions are kept as evidence (two rows, no more), and the kiosk's
            // chain is cut before the forked seq on this replica as on every other (issue 13).
            let report = try replica.ingestAtTestTime([fork], nowMillis: log.now)
            #expect(report.rejected.map(\.code) == [.fork])
            #expect(report.rejected.first?.ref == fork.ref)
            #expect(report.applied.isEmpty)
            #expect(report.newForks == [fork.ref])
            #expect(Set(report.forkEvidence.map(\.signature)) == [run[1].signature, fork.signature])
            var status = try replica.status()
            #expect(status.forks == 1)
            #expect(status.digest != digest)
            #expect(try replica.deltas(of: venue.kioskA) == [run[0]])
            let cutDigest = status.digest

            // Seeing the fork again adds no evidence and cuts nothing new; the rest of either
            // version is refused, and the evidence goes back out to whoever sent it.
            let again = try replica.ingestAtTestTime([fork, forkNext], nowMillis: log.now)
            #expect(again.rejected.map(\.code) == [.forked])
            #expect(again.newForks.isEmpty)
            #expect(again.forkEvidence.count == 2)  // forkNext is news to whoever sent it
            // Offering one version may come from a replica that never saw the other: it is answered.
            #expect(try replica.ingestAtTestTime([fork]).forkEvidence.count == 2)
            // Offering both is offering the evidence itself: not answered (no bouncing).
            #expect(try replica.ingestAtTestTime([run[1], fork]).forkEvidence.isEmpty)
            status = try replica.status()
            #expect(status.forks == 1)
            #expect(status.digest == cutDigest)
            #expect(try replica.ingestAtTestTime(Array(run[1...]), nowMillis: log.now).applied.isEmpty)
            #expect(try replica.status().forks == 1)
        }
    }

    /// Two different, validly signed deltas with the same author and seq in one batch are a fork too.
    @Test func forkWithinOneBatchIsDetected() throws {
        try withTestReplica { (venue, replica, dir) throws in
            var honest = venue.signer(venue.kioskAKey)
            var forker = venue.signer(venue.kioskAKey)
            let hlc = HLC(physicalMillis: TestTime.start, logical: 0)
            let original = try honest.sign(Bodies.checkIn("c", "a@example.com", kiosk: "Kiosk A"), hlc: hlc)
            let fork = try forker.sign(Bodies.checkIn("c", "b@example.com", kiosk: "Kiosk A"), hlc: hlc)
            #expect(original.seq == fork.seq && original != fork)
            let report = try replica.ingestAtTestTime([original, fork])
            // Stored, then cut with the fork: nothing of the kiosk's is left to relay.
            #expect(report.applied.isEmpty)
            #expect(report.rejected.map(\.code) == [.fork])
            #expect(try replica.status().forks == 1)
            #expect(try replica.head(of: venue.kioskA).seq == 0)
        }
    }

    /// A group commit joins what a peer sent in separate messages: a refused delta (a kiosk may not
    /// lock) and then a good one at the same seq are judged as separate batches would judge them,
    /// so the good one is stored (an insider's genuine check-in was dropped once they shared a run).
    @Test func aGoodDeltaAfterARefusedOneAtTheSameSeqIsStored() throws {
        try withTestReplica { (venue, replica, dir) throws in
            var insider = venue.signer(venue.kioskAKey)
            var honest = venue.signer(venue.kioskAKey)
            let hlc = HLC(physicalMillis: TestTime.start, logical: 0)
            let lock = try insider.sign(.lock(LockPayload(version: 1_000, campaignID: nil)), hlc: hlc)
            let checkIn = try honest.sign(Bodies.checkIn("c", "a@example.com", kiosk: "Kiosk A"), hlc: hlc)
            #expect(lock.seq == 1 && checkIn.seq == 1)
            let report = try replica.ingestAtTestTime([lock, checkIn])
            #expect(report.applied == [checkIn])
            #expect(report.rejected.map(\.ref) == [lock.ref])
            #expect(try replica.head(of: venue.kioskA).seq == 1)
            #expect(try replica.status().forks == 0)

            // Copies of one push from several sessions in one group: stored once, the rest counted.
            let next = try honest.sign(
                Bodies.checkIn("c", "b@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: TestTime.start + 1_000, logical: 0)
            )
            let copies = try replica.ingestAtTestTime([next, checkIn, next, next])
            #expect(copies.applied == [next])
            #expect(copies.duplicates == 3)
            #expect(copies.rejected.isEmpty)
        }
    }

    /// The hash chain authenticates a run's envelopes with one signature, so a relay can garble an
    /// interior signature without being noticed. The replica therefore ends every page it serves on a
    /// delta whose own signature it checked, so peers can always verify what it serves.
    @Test func storedDeltasCarryTheirOwnValidSignatures() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let run = Array(log.deltas(of: venue.kioskA).prefix(3))
            // A relay replaces the middle delta's signature; its envelope is untouched and still chains.
            let garbled = try SignedDelta(envelope: run[1].envelope, signature: [UInt8](repeating: 0, count: 64))
            let report = try replica.ingestAtTestTime([run[0], garbled, run[2]], nowMillis: log.now)
            let stored = try replica.deltas(of: venue.kioskA)
            let peer = try venue.openReplica(in: dir, named: "peer")
            let page = try peer.ingestAtTestTime(try replica.deltas(of: venue.kioskA, limit: 2), nowMillis: log.now)
            #expect(report.applied.count == 3)
            #expect(stored.count == 3)
            // Asked for two, it serves up to the next delta it verified (the third), and the peer accepts.
            #expect(page.rejected.isEmpty)
            #expect(page.applied.count == 3)
            let last = try #require(stored.last)
            #expect(venue.kioskAKey.publicKey.isValidSignature(last.signature, for: last.envelope))
            #expect(try peer.digest() == replica.digest())
        }
    }

    static let organizerOnlyBodies: [DeltaBody] = [
        .campaign(CampaignPayload(campaignID: "evil", name: "Evil Con")),
        Bodies.attendee(
            ScenarioLog.campaign,
            email: "mallory@example.com",
            first: "Mallory",
            last: "M",
            company: "",
            ticket: "T-6666"
        ),
        .lock(LockPayload(version: 99, campaignID: "evil")),
        .undo(UndoPayload(target: DeltaRef(author: AuthorID(bytes: [UInt8](repeating: 1, count: 32))!, seq: 1))),
    ]

    @Test(arguments: organizerOnlyBodies)
    func organizerOnlyKindSignedByAKioskIsNotAuthorized(body: DeltaBody) throws {
        #expect(body.kind.isOrganizerOnly)
        try withTestReplica { (venue, replica, dir) throws in
            let empty = try replica.digest()
            var kiosk = venue.signer(venue.kioskAKey)
            let delta = try kiosk.sign(body, hlc: HLC(physicalMillis: TestTime.start, logical: 0))
            let report = try replica.ingestAtTestTime([delta])
            #expect(report.rejected.map(\.code) == [.notAuthorized])
            #expect(report.applied.isEmpty)
            #expect(try replica.heads().isEmpty)
            #expect(try replica.digest() == empty)
            // The organizer may sign the very same body.
            var organizer = venue.signer(venue.organizerKey)
            let allowed = try organizer.sign(body, hlc: HLC(physicalMillis: TestTime.start, logical: 0))
            #expect(try replica.ingestAtTestTime([allowed]).applied == [allowed])
        }
    }

    @Test func unauthorizedDeltaStopsTheRestOfItsRun() throws {
        try withTestReplica { (venue, replica, dir) throws in
            var kiosk = venue.signer(venue.kioskAKey)
            let hlc = { (ms: UInt64) in HLC(physicalMillis: TestTime.start + ms, logical: 0) }
            let first = try kiosk.sign(Bodies.checkIn("c", "a@example.com", kiosk: "Kiosk A"), hlc: hlc(1))
            let lock = try kiosk.sign(.lock(LockPayload(version: 7, campaignID: "c")), hlc: hlc(2))
            let third = try kiosk.sign(Bodies.checkIn("c", "b@example.com", kiosk: "Kiosk A"), hlc: hlc(3))
            let report = try replica.ingestAtTestTime([third, lock, first])
            #expect(report.applied == [first])
            #expect(report.rejected.map(\.code) == [.notAuthorized])
            #expect(report.rejected.first?.ref == lock.ref)
            #expect(try replica.head(of: venue.kioskA).seq == 1)
            #expect(try replica.status().lock == nil)
        }
    }

    @Test func deltaOfAnotherVenueIsRefused() throws {
        try withTestReplica { (venue, replica, dir) throws in
            let empty = try replica.digest()
            let elsewhere = VenueID.random()
            var kiosk = venue.signer(venue.kioskAKey, venue: elsewhere)
            let checkIn = try kiosk.sign(
                Bodies.checkIn("c", "a@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
            #expect(checkIn.venue == elsewhere)
            var organizer = venue.signer(venue.organizerKey, venue: elsewhere)
            let lock = try organizer.sign(
                .lock(LockPayload(version: 1, campaignID: "c")),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
            let report = try replica.ingestAtTestTime([checkIn, lock])
            #expect(report.rejected.map(\.code) == [.wrongVenue, .wrongVenue])
            #expect(report.applied.isEmpty)
            #expect(try replica.heads().isEmpty)
            #expect(try replica.digest() == empty)
        }
    }

    @Test func atomicIngestWithOneBadDeltaStoresNothing() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let venue = log.venue
            let empty = try replica.digest()
            let organizerRun = Array(log.deltas(of: venue.organizer).prefix(10))
            let kioskRun = Array(log.deltas(of: venue.kioskA).prefix(3))
            var kiosk = venue.signer(
                venue.kioskAKey,
                head: AuthorHead(
                    author: venue.kioskA,
                    seq: 3,
                    hash: Blake2b.hash256(kioskRun[2].envelope)
                )
            )
            let badLock = try kiosk.sign(
                .lock(LockPayload(version: 9, campaignID: nil)),
                hlc: HLC(packed: kioskRun[2].hlc.packed + 1)
            )

            let cases: [(batch: [SignedDelta], code: ReplicaError.Code)] = [
                (organizerRun + kioskRun + [badLock], .notAuthorized),
                (organizerRun + [try kioskRun[2].flippingSignatureByte(at: 1)] + kioskRun.prefix(2), .badSignature),
                (kioskRun + Array(organizerRun.dropFirst()), .gap),
            ]
            for (batch, code) in cases {
                let error = thrownError { () throws(ReplicaError) in
                    try replica.ingestAtTestTime(batch, nowMillis: log.now, atomic: true)
                }
                #expect(error?.code == code)
                #expect(try replica.heads().isEmpty)
                #expect(try replica.digest() == empty)
            }

            // The same first batch without `atomic` keeps everything but the refused lock.
            let partial = try replica.ingestAtTestTime(organizerRun + kioskRun + [badLock], nowMillis: log.now)
            #expect(partial.applied.count == organizerRun.count + kioskRun.count)
            #expect(partial.rejected.map(\.code) == [.notAuthorized])
            #expect(try replica.head(of: venue.kioskA).seq == 3)
        }
    }

    @Test func atomicIngestOfAGoodBatchStoresItAll() throws {
        try withScenarioLog { (log, replica, dir) throws in
            let report = try replica.ingestAtTestTime(log.all, nowMillis: log.now, atomic: true)
            #expect(report.applied.count == log.all.count)
            #expect(try replica.status().checkedIn == ScenarioLog.expectedCheckedIn)
        }
    }

    /// Ahead of local time beyond the clock bound, but inside the certificate's window: stored and
    /// counted, with a warning. (Beyond the window it is refused: see `KioskAttackTests`.)
    @Test func deltaStampedAWeekAheadIsStoredButDoesNotAdvanceTheClock() throws {
        try withTestReplica { (venue, replica, dir) throws in
            let now = TestTime.start + 60_000
            let c = ScenarioLog.campaign
            var organizer = venue.signer(venue.organizerKey)
            var kioskA = venue.signer(venue.kioskAKey)
            var kioskB = venue.signer(venue.kioskBKey)
            let setup = [
                try organizer.sign(
                    .campaign(CampaignPayload(campaignID: c, name: "DevCon")),
                    hlc: HLC(physicalMillis: now - 50_000, logical: 0)
                ),
                try organizer.sign(
                    Bodies.attendee(c, email: "ada@example.com", first: "Ada", last: "L", company: "", ticket: nil),
                    hlc: HLC(physicalMillis: now - 40_000, logical: 0)
                ),
                try organizer.sign(
                    .lock(LockPayload(version: 1, campaignID: c, checkInStatus: "Attended")),
                    hlc: HLC(physicalMillis: now - 30_000, logical: 0)
                ),
            ]
            let week: UInt64 = 7 * 24 * 3_600 * 1_000
            let future = try kioskA.sign(
                Bodies.checkIn(c, "ada@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: now + week, logical: 0)
            )
            let normalHLC = HLC(physicalMillis: now - 1_000, logical: 3)
            let normal = try kioskB.sign(Bodies.checkIn(c, "grace@example.com", kiosk: "Kiosk B"), hlc: normalHLC)
            // Just inside the bound: no warning.
            let edge = try kioskB.sign(
                Bodies.checkIn(c, "alan@example.com", kiosk: "Kiosk B"),
                hlc: HLC(physicalMillis: now + TestTime.clockBound, logical: 0)
            )

            let report = try replica.ingest(
                setup + [future, normal, edge],
                nowMillis: now,
                clockBoundMillis: TestTime.clockBound
            )
            #expect(report.rejected.isEmpty)
            #expect(report.applied.count == 6)
            #expect(report.clockWarnings == [future.ref])
            #expect(report.newestAcceptedHLC == edge.hlc)

            let status = try replica.status()
            #expect(status.checkedIn == 3)
            #expect(status.clockWarnings == 1)
            let ada = try replica.view { try $0.lookup(campaignID: c, query: "ada@example.com") }
            #expect(ada?.firstArrival?.ref == future.ref)
            #expect(try replica.newestHLC(author: venue.kioskA) == future.hlc)

            // A clock fed from the report stays at local time.
            var clock = HybridClock(maxAheadMillis: TestTime.clockBound)
            if let newest = report.newestAcceptedHLC { clock.observe(newest, nowMillis: now) }
            #expect(clock.observe(future.hlc, nowMillis: now) == .tooFarAhead(byMillis: week))
            #expect(clock.tick(nowMillis: now).physicalMillis <= now + TestTime.clockBound)
        }
    }

    @Test func replicaOfAnotherVenueCannotBeOpened() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            _ = try venue.openReplica(in: dir)
            let other = VenuePolicy(venue: VenueID.random(), organizer: venue.organizer)
            let error = thrownError { () throws(ReplicaError) in
                try Replica.open(path: dir + "/replica.sqlite", policy: other)
            }
            #expect(error?.code == .open)
            // The right venue still opens it.
            _ = try venue.openReplica(in: dir)
        }
    }
}
