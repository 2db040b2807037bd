import MusterCore
import MusterCrypto
import Testing

@testable import MusterRules

/// The rule of which code opens a door once badges have been replaced (``BadgeCodes``).
@Suite struct BadgeCodesTests {
    static let desk = AuthorID(bytes: [UInt8](repeating: 1, count: 32))!
    static let other = AuthorID(bytes: [UInt8](repeating: 2, count: 32))!

    static func replacement(_ code: String?, at millis: UInt64, by author: AuthorID = desk) -> CodeReplacement {
        CodeReplacement(
            ref: DeltaRef(author: author, seq: millis),
            hlc: HLC(physicalMillis: millis, logical: 0),
            code: code,
            kioskName: "Desk",
            location: "Hall"
        )
    }

    @Test func withoutReplacementsEveryListedCodeIsValid() {
        #expect(BadgeCodes.killed("T-1", listed: ["T-1"], replacements: []) == nil)
        #expect(BadgeCodes.current(listed: "T-1", replacements: []) == "T-1")
    }

    @Test func theNewestReplacementDecidesWhateverTheOrderTheyArrived() {
        let first = Self.replacement("R-AAAA", at: 10)
        let second = Self.replacement("R-BBBB", at: 20, by: Self.other)
        for replacements in [[first, second], [second, first]] {
            #expect(BadgeCodes.current(listed: "T-1", replacements: replacements) == "R-BBBB")
            #expect(BadgeCodes.killed("r-bbbb", listed: ["T-1"], replacements: replacements) == nil)
            #expect(BadgeCodes.killed(" t-1 ", listed: ["T-1"], replacements: replacements) == second)
            #expect(BadgeCodes.killed("R-AAAA", listed: ["T-1"], replacements: replacements) == second)
            #expect(BadgeCodes.killed("T-2", listed: ["T-1"], replacements: replacements) == nil, "not theirs")
        }
    }

    @Test func aRestoreGivesTheListedCodesBack() {
        let replaced = Self.replacement("R-AAAA", at: 10)
        let restored = Self.replacement(nil, at: 30)
        let replacements = [replaced, restored]
        #expect(BadgeCodes.current(listed: "T-1", replacements: replacements) == "T-1")
        #expect(BadgeCodes.killed("T-1", listed: ["T-1", "W-2"], replacements: replacements) == nil)
        #expect(BadgeCodes.killed("W-2", listed: ["T-1", "W-2"], replacements: replacements) == nil)
        #expect(BadgeCodes.killed("R-AAAA", listed: ["T-1"], replacements: replacements) == restored)
    }

    /// A new code must already be in the form doors compare typed codes in, or no door would match it.
    @Test func aKioskCannotSignACodeNoDoorCouldMatch() throws {
        let policy = VenuePolicy(
            venue: VenueID(bytes: [UInt8](repeating: 3, count: VenueID.byteCount))!,
            organizer: Self.other
        )
        let key = try SigningKeyPair.generate()
        for (code, accepted) in [
            ("R-0123ABCD", true), ("r-0123abcd", false), (" R-1", false), ("", false), (nil, true),
        ] {
            var signer = DeltaSigner(venue: policy.venue, startingLogOf: key)
            let body = DeltaBody.badgeCode(BadgeCodePayload(campaignID: "c", attendeeKey: "ada@x.org", code: code))
            let delta = try signer.sign(body, hlc: HLC(physicalMillis: 1, logical: 0)).decode()
            let passed = (try? policy.checkMeaning(delta)) != nil
            #expect(passed == accepted, "\(String(describing: code))")
        }
    }
}
