import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterCore
@testable import MusterRules

@Suite("ChainVerifier")
struct ChainVerifierTests {
    let venue: TestVenue
    let kiosk: AuthorID

    init() throws {
        venue = try TestVenue()
        kiosk = venue.kioskA
    }

    /// The error verifying `run` as the start of kiosk A's log ends with, or nil.
    func verifyError(_ run: [SignedDelta]) -> DeltaRejection? {
        thrownError { () throws(DeltaRejection) in try ChainVerifier.verify(run: run, after: .empty(kiosk)) }
    }

    /// `count` check-ins by kiosk A continuing after `head`, and the signer's head after them.
    func run(
        _ count: Int,
        after head: AuthorHead? = nil,
        hlcStart: UInt64 = TestTime.start
    ) throws -> (
        [SignedDelta], AuthorHead
    ) {
        var signer = venue.signer(venue.kioskAKey, head: head)
        let deltas = try (0..<count).map { index in
            try signer.sign(
                Bodies.checkIn(ScenarioLog.campaign, "guest\(index)@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: hlcStart + UInt64(index), logical: 0)
            )
        }
        return (deltas, signer.head)
    }

    @Test func validRunFromGenesisReturnsEveryHash() throws {
        let (deltas, head) = try run(5)
        let hashes = try ChainVerifier.verify(run: deltas, after: .empty(kiosk))
        #expect(hashes == deltas.map { Blake2b.hash256($0.envelope) })
        #expect(hashes.last == head.hash)
        #expect(head.seq == 5)
        // Each delta names its predecessor's hash; the first names the genesis hash.
        #expect(deltas[0].prev == Delta.genesisPrev)
        for index in 1..<deltas.count { #expect(deltas[index].prev == hashes[index - 1]) }
    }

    @Test func runContinuingAKnownHeadVerifies() throws {
        let (first, head) = try run(3)
        let (second, _) = try run(2, after: head, hlcStart: TestTime.start + 100)
        #expect(second.map(\.seq) == [4, 5])
        #expect(try ChainVerifier.verify(run: second, after: head).count == 2)
        // The same continuation does not verify from genesis or from an older head.
        #expect(
            verifyError(second)?
                .code == .gap
        )
        let older = AuthorHead(author: kiosk, seq: 3, hash: Blake2b.hash256(first[1].envelope))
        #expect(
            thrownError { () throws(DeltaRejection) in try ChainVerifier.verify(run: second, after: older) }?.code
                == .brokenChain
        )
    }

    @Test func emptyRunVerifiesToNothing() throws {
        #expect(try ChainVerifier.verify(run: [], after: .empty(kiosk)).isEmpty)
    }

    @Test func missingDeltaIsAGap() throws {
        let (deltas, _) = try run(4)
        let error = verifyError([deltas[0], deltas[1], deltas[3]])
        #expect(error?.code == .gap)
        #expect(error?.ref == deltas[3].ref)
    }

    @Test func tamperedMiddleDeltaBreaksTheChainAtItsSuccessor() throws {
        let (deltas, _) = try run(3)
        var tampered = deltas
        tampered[1] = try deltas[1].flippingEnvelopeByte(at: deltas[1].envelope.count - 1)
        let error = verifyError(tampered)
        #expect(error?.code == .brokenChain)
        #expect(error?.ref == deltas[2].ref)
    }

    @Test func tamperedPrevOfTheFirstDeltaBreaksTheChain() throws {
        let (deltas, _) = try run(2)
        var tampered = deltas
        tampered[0] = try deltas[0].flippingEnvelopeByte(at: SignedDelta.prevOffset + 5)
        let error = verifyError(tampered)
        #expect(error?.code == .brokenChain)
        #expect(error?.ref == deltas[0].ref)
    }

    @Test func tamperedNewestDeltaFailsItsSignature() throws {
        let (deltas, _) = try run(3)
        for index in [SignedDelta.hlcOffset + 7, deltas[2].envelope.count - 1] {
            var tampered = deltas
            tampered[2] = try deltas[2].flippingEnvelopeByte(at: index)
            let error = verifyError(tampered)
            #expect(error?.code == .badSignature)
        }
    }

    @Test func tamperedSignatureOfTheNewestDeltaIsRefused() throws {
        let (deltas, _) = try run(3)
        var tampered = deltas
        tampered[2] = try deltas[2].flippingSignatureByte(at: 10)
        let error = verifyError(tampered)
        #expect(error?.code == .badSignature)
        #expect(error?.ref == deltas[2].ref)
    }

    @Test func signatureByAnotherKeyIsRefused() throws {
        let (deltas, _) = try run(1)
        let forged = try SignedDelta(envelope: deltas[0].envelope, signature: venue.kioskBKey.sign(deltas[0].envelope))
        let error = verifyError([forged])
        #expect(error?.code == .badSignature)
    }

    @Test func runMixingAuthorsIsMalformed() throws {
        let (a, _) = try run(1)
        var signerB = venue.signer(venue.kioskBKey)
        let b = try signerB.sign(
            Bodies.checkIn(ScenarioLog.campaign, "x@example.com", kiosk: "Kiosk B"),
            hlc: HLC(physicalMillis: 1, logical: 0)
        )
        let error = verifyError([a[0], b])
        #expect(error?.code == .malformed)
    }
}
