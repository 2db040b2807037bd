import Foundation
import MusterCore
import MusterRules
import Testing

@testable import MusterPretix

/// What `muster push pretix` sends (issue 35): one body per check-in or check-out of a pretix ticket,
/// at the door's time in UTC, its nonce the delta's hash, always forced.
@Suite("pretix redeem bodies")
struct PretixRedeemTests {
    static let kiosk = AuthorID(bytes: [UInt8](repeating: 9, count: 32))!

    static func entry(_ kind: DeltaKind, seq: UInt64, millis: UInt64, ticket: String?) -> PresenceLogEntry {
        let presence = PresenceRecord(
            ref: DeltaRef(author: kiosk, seq: seq),
            kind: kind,
            hlc: HLC(physicalMillis: millis, logical: 0),
            kioskName: "k1",
            location: "Hall",
            memberStatus: "Attended",
            hash: [UInt8](repeating: UInt8(seq), count: 32)
        )
        let attendee = AttendeeRecord(
            campaignID: "c",
            key: "ada@x.org",
            email: "ada@x.org",
            firstName: "Ada",
            lastName: "L",
            company: "",
            ticket: ticket,
            walkInTickets: ticket == nil ? ["W-1"] : [],
            salesforceID: nil,
            status: nil,
            admitted: true,
            imported: ticket != nil,
            walkIn: ticket == nil,
            firstArrival: nil,
            latest: nil
        )
        return PresenceLogEntry(presence: presence, campaignName: "C", attendee: attendee, note: nil)
    }

    @Test func checkInsAndCheckOutsOfPretixTicketsOnly() throws {
        let scans = PretixRedeem.scans(
            [
                Self.entry(.checkIn, seq: 1, millis: 1_796_371_200_123, ticket: "s-ada"),
                Self.entry(.checkOut, seq: 2, millis: 1_796_371_260_000, ticket: "s-ada"),
                Self.entry(.registration, seq: 3, millis: 1_796_371_270_000, ticket: nil),
            ],
            list: 12
        )
        #expect(scans.map(\.type) == ["entry", "exit"], "a walk-in has no pretix ticket")
        #expect(scans[0].datetime == "2026-12-04T08:00:00.123Z")
        #expect(scans[0].nonce == String(repeating: "01", count: 32))
        #expect(scans.allSatisfy { $0.force && $0.lists == [12] && $0.secret == "s-ada" })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let line = String(decoding: try encoder.encode(scans[1]), as: UTF8.self)
        #expect(
            line
                == #"{"datetime":"2026-12-04T08:01:00.000Z","force":true,"ignore_unpaid":false,"lists":[12],"nonce":"\#(String(repeating: "02", count: 32))","questions_supported":false,"secret":"s-ada","type":"exit"}"#
        )
    }

    @Test func aLooseTokenFileIsRefusedAndTheTokenNeverShows() throws {
        let path = NSTemporaryDirectory() + "pretix-token-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        FileManager.default.createFile(atPath: path, contents: Data("secret-token-value\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let loose = thrownError { () throws(PretixError) in try PretixTarget.token(fromFile: path) }
        #expect(loose?.description.contains("readable by others") == true)
        #expect(loose?.description.contains("secret-token-value") == false)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try PretixTarget.token(fromFile: path) == "secret-token-value")
        let target = PretixTarget(
            url: URL(string: "http://127.0.0.1:1")!,
            organizer: "o",
            event: "e",
            list: 1,
            token: "t0k"
        )
        #expect(!"\(target)".contains("t0k"))
    }

    /// A pretix that is not there is an error in words, not a hang or a crash.
    @Test func anUnreachablePretixIsAnError() throws {
        let target = PretixTarget(
            url: URL(string: "http://127.0.0.1:9")!,
            organizer: "o",
            event: "e",
            list: 1,
            token: "t"
        )
        let error = thrownError { () throws(PretixError) in try PretixClient(target).attendeeList() }
        guard case .unreachable? = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }
}

/// The test kit's `thrownError`, without the kit (this target links only what it tests).
func thrownError<E: Error, T>(_ body: () throws(E) -> T) -> E? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
