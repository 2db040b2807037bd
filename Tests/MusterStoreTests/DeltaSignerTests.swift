import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules

/// Signing is on the input path (an imported row, a walk-in's form): a body no replica would accept is a typed
/// error that leaves the head where it was, never a crash.
@Suite("DeltaSigner")
struct DeltaSignerTests {
    @Test func bodyOverTheDecoderLimitsThrowsAndKeepsTheHead() throws {
        let key = try SigningKeyPair.generate()
        let start = AuthorHead.empty(AuthorID(key.publicKey))
        var signer = DeltaSigner(venue: VenueID.random(), keyPair: key, head: start)
        let flags = String(repeating: "\u{1F1EB}\u{1F1F7}", count: 1_000)  // 1,000 characters, 8,000 bytes
        let hostile = Bodies.attendee(
            ScenarioLog.campaign,
            email: "eve@example.com",
            first: flags,
            last: flags,
            company: "",
            ticket: nil
        )
        let error = try #require(throws: DeltaSignerError.self) {
            try signer.sign(hostile, hlc: HLC(physicalMillis: TestTime.start, logical: 0))
        }
        #expect(error.seq == 1)
        #expect(error.kind == .attendee)
        #expect(error.description.contains("exceeds the limit of \(Limits.maxFieldBytes)"), "\(error)")
        #expect(signer.head == start, "nothing was signed")

        let honest = Bodies.checkIn(ScenarioLog.campaign, "ada@example.com", kiosk: "Kiosk A")
        let signed = try signer.sign(honest, hlc: HLC(physicalMillis: TestTime.start, logical: 0))
        #expect(signed.seq == 1, "the refused body used no seq")
        #expect(key.publicKey.isValidSignature(signed.signature, for: signed.envelope))
    }
}
