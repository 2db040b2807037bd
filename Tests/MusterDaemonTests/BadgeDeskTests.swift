import Foundation
import MusterBadge
import MusterBadgePrinting
import MusterControl
import MusterCore
import MusterCrypto
import MusterSync
import MusterTestSupport
import MusterTime
import Synchronization
import Testing

@testable import MusterDaemon
@testable import MusterRules

/// The badge desk against a real cupsd of the test's own (``PrivateCups``): the job goes through
/// the scheduler and the `ipp` backend to a virtual IPP printer (ippeveprinter), the desk answers
/// only once CUPS reports the job completed, and the PDF the printer received is read back with
/// pdftotext. Root only (cupsd runs its backends as lp).
@Suite(
    "BadgeDesk with a private cupsd",
    .serialized,
    .enabled(if: PrivateCups.isAvailable && ToolRun.available("pdftotext"), "needs root, cups and poppler-utils")
)
struct BadgeDeskCupsTests {
    /// Attendees whose names need real shaping and font fallback.
    static func importNames(_ f: HandlerFixture) throws {
        try f.importAndLock()
        let response = try f.submit([
            Bodies.attendee(
                f.campaignID,
                email: "lucja@example.com",
                first: "Łucja",
                last: "Żółkiewska",
                company: "Spółdzielnia Źródło",
                ticket: "MUS-PL01"
            ),
            Bodies.attendee(f.campaignID, email: "wang@example.com", first: "小明", last: "王", company: "北京科技"),
            Bodies.attendee(f.campaignID, email: "maryam@example.com", first: "مريم", last: "الحسيني"),
        ])
        guard response.outcome == .submitted else { throw TestFailure("import failed: \(response)") }
    }

    /// Runs `body` with the names imported, a private cupsd (its queue stopped first if `stopped`), and a
    /// desk printing to it in `format`; cupsd is shut down afterwards.
    static func withPrintingDesk(
        format: BadgeFormat = .pdf,
        stopped: Bool = false,
        _ body: (HandlerFixture, PrivateCups, BadgeDesk) async throws -> Void
    ) async throws {
        let f = try HandlerFixture()
        try importNames(f)
        // cupsd's start is waited for on a thread of its own, not one of the suite's two.
        let cups = try await TestSupport.blocking { try PrivateCups() }
        defer { cups.shutdown() }
        if stopped { try cups.stopQueue() }
        try await body(f, cups, try desk(f, cups, format: format))
    }

    static func desk(_ f: HandlerFixture, _ cups: PrivateCups?, format: BadgeFormat = .pdf) throws -> BadgeDesk {
        let printer = try cups.map {
            BadgePrinter(
                queue: try CupsQueue(name: format == .zpl ? $0.zebraQueue : $0.queue, server: $0.socketPath),
                time: SystemTime()
            )
        }
        return BadgeDesk(
            handler: f.handler,
            layout: .standard,
            printer: printer,
            format: format,
            logger: TestSupport.quietLogger
        )
    }

    static func badge(
        _ desk: BadgeDesk,
        key: String? = nil,
        query: String? = nil,
        reason: String? = nil
    ) async
        -> ControlResponse
    {
        var fields = ["op": "badge"]
        fields["attendeeKey"] = key
        fields["query"] = query
        fields["badgeReason"] = reason
        return await answer(desk, line: Array((try? JSONEncoder().encode(fields)) ?? Data()))
    }

    /// How the control server answers a `badge` line with a badge desk: the order carried out, or a
    /// line without what it needs answered by the desk.
    static func answer(_ desk: BadgeDesk, line: [UInt8]) async -> ControlResponse {
        do {
            guard case .badge(let order) = try ControlRequest.read(line) else {
                return .failure(.internal, "not a badge request")
            }
            return await desk.handle(order)
        } catch let error where error.code == .incomplete {
            return await desk.answer(incomplete: error)
        } catch {
            return .failure(.badRequest, "malformed control request")
        }
    }

    static func text(of pdf: Data) throws -> String {
        let directory = try TemporaryDirectory("muster-badge-pdf")
        defer { directory.remove() }
        let path = directory.file("job.pdf")
        try pdf.write(to: URL(fileURLWithPath: path))
        let run = try ToolRun.run("pdftotext", ["-enc", "UTF-8", path, "-"])
        guard run.status == 0 else { throw TestFailure("pdftotext: \(run.errorOutput)") }
        return run.output
    }

    func badges(_ f: HandlerFixture, _ key: String) throws -> [BadgeRecord] {
        try f.replica.view { try $0.badges(campaignID: f.campaignID, attendeeKey: key) }
    }

    /// Check-in, then the badge: the job completes, the PDF holds the Polish, Chinese and Arabic
    /// names, and each printed badge is a signed delta of this kiosk.
    @Test func checkInPrintsTheBadgeWithEveryScript() async throws {
        try await Self.withPrintingDesk { (f, cups, desk) async throws in
            let people = [
                ("lucja@example.com", ["Łucja", "Żółkiewska", "Spółdzielnia Źródło", "DevConf 2026"]),
                ("wang@example.com", ["小明", "王", "北京科技"]),
                ("maryam@example.com", ["مريم", "الحسيني"]),
            ]
            for (index, (key, words)) in people.enumerated() {
                #expect(f.request(.checkIn, query: key).outcome == .checkedIn, "the check-in is acknowledged first")
                let response = await Self.badge(desk, key: key)
                #expect(response.outcome == .badgePrinted, "\(key): \(response.message ?? "")")
                #expect(response.badgeJob != nil)
                let jobs = try await cups.printer.waitForJobs(index + 1)
                let text = try Self.text(of: jobs[index])
                for word in words { #expect(text.contains(word), "'\(word)' not in the printed PDF: \(text)") }
                #expect(try badges(f, key).map(\.reason) == [.selfService])
                #expect(try badges(f, key).first?.kioskName == "Hall A")
            }
        }
    }

    /// The reprint guard: a second self-service attempt prints nothing; staff reprint prints and
    /// is recorded.
    @Test func secondSelfServicePrintsNothingAndReprintIsRecorded() async throws {
        try await Self.withPrintingDesk { (f, cups, desk) async throws in
            #expect(f.request(.checkIn, query: "MUS-PL01").outcome == .checkedIn)
            #expect(await Self.badge(desk, key: "lucja@example.com").outcome == .badgePrinted)
            _ = try await cups.printer.waitForJobs(1)

            let again = await Self.badge(desk, key: "lucja@example.com")
            #expect(again.outcome == .badgeAlreadyPrinted)
            #expect(again.message?.contains("already printed") == true)
            #expect(again.message?.contains("Hall A") == false, "the screen is not told where it was printed")
            // The desk answers only after a job it sent completed, so a second job would be here now.
            #expect(cups.printer.jobs.count == 1)

            let reprint = await Self.badge(desk, query: "MUS-PL01", reason: "reprint")
            #expect(reprint.outcome == .badgePrinted)
            #expect(try await cups.printer.waitForJobs(2).count == 2)
            #expect(try badges(f, "lucja@example.com").map(\.reason) == [.selfService, .reprint])

            let printOnly = await Self.badge(desk, query: "grace@example.com", reason: "print-only")
            #expect(printOnly.outcome == .badgePrinted, "print-only needs no check-in")
            #expect(try f.attendeeRecord("grace@example.com")?.isCheckedIn == false)
            #expect(try badges(f, "grace@example.com").map(\.reason) == [.printOnly])
        }
    }

    /// A kiosk configured for a raw Zebra queue (`badge.format = "zpl"`) sends the label as ZPL,
    /// untouched by CUPS: the Zebra (on `socket://`, as a network Zebra is added) receives exactly
    /// the renderer's ZPL, and the badge is recorded.
    @Test func aZPLQueueReceivesTheLabelAsZPL() async throws {
        try await Self.withPrintingDesk(format: .zpl) { (f, cups, desk) async throws in
            #expect(f.request(.checkIn, query: "lucja@example.com").outcome == .checkedIn)
            let response = await Self.badge(desk, key: "lucja@example.com")
            #expect(response.outcome == .badgePrinted, "\(response.message ?? "")")
            let job = try await cups.zebra.waitForJobs(1)[0]
            let order = BadgeOrder(attendee: .key("lucja@example.com"), reason: .reprint)
            let expected = try f.replica.view { view in try BadgeRequest.decide(order, view: view) }
            guard case .print(let content, _, _, _) = expected else {
                Issue.record("no badge content for lucja")
                return
            }
            let zpl = try BadgeRenderer(layout: .standard).render(content, as: .zpl).bytes
            #expect(
                Array(job) == zpl,
                "the printer got \(job.count) bytes: \(String(decoding: job.prefix(60), as: UTF8.self))"
            )
            #expect(String(decoding: job.prefix(20), as: UTF8.self).hasPrefix("^XA\n^PW496\n^LL799"))
            #expect(try badges(f, "lucja@example.com").map(\.reason) == [.selfService])
        }
    }

    /// The neighbour's side of `[badge] fallback`: a peer's self-service badge is decided on this replica
    /// (a badge follows a check-in; the guard), printed on this queue and recorded here, once.
    @Test func aPeersBadgePrintsHereOnce() async throws {
        try await Self.withPrintingDesk { (f, cups, desk) async throws in
            let notIn = await desk.printForPeer(RelayedPrint(id: 3, attendeeKey: "wang@example.com", after: 0))
            #expect(notIn.id == 3 && notIn.outcome == .notPrinted, "a badge follows a check-in: \(notIn.message)")
            #expect(f.request(.checkIn, query: "wang@example.com").outcome == .checkedIn)
            let printed = await desk.printForPeer(RelayedPrint(id: 4, attendeeKey: "wang@example.com", after: 0))
            #expect(printed.id == 4 && printed.outcome == .printed && printed.job > 0, "\(printed.message)")
            #expect(try await cups.printer.waitForJobs(1).count == 1)
            #expect(try badges(f, "wang@example.com").map(\.reason) == [.selfService])
            let again = await desk.printForPeer(RelayedPrint(id: 5, attendeeKey: "wang@example.com", after: 0))
            #expect(again.outcome == .alreadyPrinted)
            #expect(cups.printer.jobs.count == 1)
        }
    }

    /// A stopped queue here with a neighbour named: the neighbour is asked (a stopped queue is the
    /// printer's fault, nothing came out).
    @Test func aStoppedQueueAsksTheNeighbour() async throws {
        try await Self.withPrintingDesk(stopped: true) { (f, cups, _) async throws in
            #expect(f.request(.checkIn, query: "wang@example.com").outcome == .checkedIn)
            let asked = AskedKeys()
            let desk = BadgeDesk(
                handler: f.handler,
                layout: .standard,
                printer: BadgePrinter(
                    queue: try CupsQueue(name: cups.queue, server: cups.socketPath),
                    time: SystemTime()
                ),
                neighbour: BadgeDesk.NeighbourPrinter(name: "Desk B") { key in
                    asked.keys.withLock { $0.append(key) }
                    return RelayedPrintReply(id: 1, outcome: .printed, job: 9)
                },
                logger: TestSupport.quietLogger
            )
            let response = await Self.badge(desk, key: "wang@example.com")
            #expect(response.outcome == .badgePrinted, "\(response.message ?? "")")
            #expect(asked.all == ["wang@example.com"])
            #expect(cups.printer.jobs.isEmpty)
        }
    }

    /// A stopped queue (out of labels): the attendee is told to see staff, nothing is recorded as
    /// printed, and the check-in stands.
    @Test func stoppedQueueSendsToStaffAndTheCheckInStands() async throws {
        try await Self.withPrintingDesk(stopped: true) { (f, cups, desk) async throws in
            #expect(f.request(.checkIn, query: "wang@example.com").outcome == .checkedIn)
            let response = await Self.badge(desk, key: "wang@example.com")
            #expect(response.outcome == .badgeNotPrinted)
            #expect(response.message?.contains("stopped") == true, "\(response.message ?? "")")
            #expect(try f.attendeeRecord("wang@example.com")?.isInside == true)
            #expect(try badges(f, "wang@example.com").isEmpty)
            #expect(cups.printer.jobs.isEmpty)

            // Staff restart the queue; the attendee may now get the badge at the kiosk.
            try cups.startQueue()
            #expect(await Self.badge(desk, key: "wang@example.com").outcome == .badgePrinted)
            #expect(try await cups.printer.waitForJobs(1).count == 1)
        }
    }
}

@Suite("BadgeDesk without a printer, and the guard across kiosks")
struct BadgeDeskGuardTests {
    /// A desk without a printer whose `[badge] fallback` is "Desk B", answering `reply`; the keys it
    /// was asked for are kept.
    static func deskWithNeighbour(
        _ f: HandlerFixture,
        reply: RelayedPrintReply.Outcome
    ) -> (BadgeDesk, AskedKeys) {
        let asked = AskedKeys()
        let neighbour = BadgeDesk.NeighbourPrinter(name: "Desk B") { key in
            asked.keys.withLock { $0.append(key) }
            return RelayedPrintReply(id: 1, outcome: reply, job: reply == .printed ? 41 : 0, message: "peer says")
        }
        let desk = BadgeDesk(
            handler: f.handler,
            layout: .standard,
            printer: nil,
            neighbour: neighbour,
            logger: TestSupport.quietLogger
        )
        return (desk, asked)
    }

    /// `[badge] fallback`: a self-service badge this kiosk cannot print is printed by the named peer,
    /// and the answer says where to collect it; the peer's guard and its failure are passed on as they are.
    @Test func aSelfServiceBadgeGoesToTheNeighbour() async throws {
        let f = try HandlerFixture.importedAndLocked()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        let (desk, asked) = Self.deskWithNeighbour(f, reply: .printed)
        let response = await BadgeDeskCupsTests.badge(desk, key: "grace@example.com")
        #expect(response == .badgePrinted(try #require(response.attendee), job: 41, at: "Desk B"))
        #expect(asked.all == ["grace@example.com"])
        #expect(
            try f.replica.view { try $0.badges(campaignID: f.campaignID, attendeeKey: "grace@example.com") }.isEmpty,
            "the badge is recorded by the kiosk that printed it, not here"
        )

        let (guarded, _) = Self.deskWithNeighbour(f, reply: .alreadyPrinted)
        #expect(await BadgeDeskCupsTests.badge(guarded, key: "grace@example.com").outcome == .badgeAlreadyPrinted)
        let (failing, _) = Self.deskWithNeighbour(f, reply: .notPrinted)
        let failed = await BadgeDeskCupsTests.badge(failing, key: "grace@example.com")
        #expect(failed.outcome == .badgeNotPrinted)
        #expect(failed.message == "No printer is configured on this kiosk.", "this kiosk's own reason")
    }

    /// Only the screen's self-service badge travels: a staff reprint or print-only stays at this desk,
    /// and nothing the guard refuses here is asked of the neighbour.
    @Test func staffPrintsAndRefusalsStayHere() async throws {
        let f = try HandlerFixture.importedAndLocked()
        let (desk, asked) = Self.deskWithNeighbour(f, reply: .printed)
        #expect(
            await BadgeDeskCupsTests.badge(desk, query: "grace@example.com", reason: "reprint").outcome
                == .badgeNotPrinted
        )
        #expect(
            await BadgeDeskCupsTests.badge(desk, query: "grace@example.com", reason: "print-only").outcome
                == .badgeNotPrinted
        )
        #expect(await BadgeDeskCupsTests.badge(desk, key: "grace@example.com").outcome == .refused, "no check-in")
        #expect(asked.all.isEmpty)
    }

    @Test func noPrinterIsNotPrinted() async throws {
        let f = try HandlerFixture.importedAndLocked()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        let desk = try BadgeDeskCupsTests.desk(f, nil)
        let response = await BadgeDeskCupsTests.badge(desk, key: "grace@example.com")
        #expect(response.outcome == .badgeNotPrinted)
        #expect(response.attendee?.key == "grace@example.com")
        #expect(try f.attendeeRecord("grace@example.com")?.isInside == true)
    }

    @Test func selfServiceNeedsACheckInAndAKnownReason() async throws {
        let f = try HandlerFixture.importedAndLocked()
        let desk = try BadgeDeskCupsTests.desk(f, nil)
        #expect(await BadgeDeskCupsTests.badge(desk, key: "grace@example.com").outcome == .refused)
        #expect(await BadgeDeskCupsTests.badge(desk, key: "nobody@example.com").outcome == .notFound)
        let unknown = await BadgeDeskCupsTests.badge(desk, key: "grace@example.com", reason: "because")
        #expect(unknown.outcome == .error && unknown.errorCode == .badRequest)
        #expect(unknown.message == "unknown badge reason 'because' (self-service, reprint, print-only)")
    }

    /// A `badge` that names no attendee is a bad request once a campaign is locked; before, the kiosk
    /// says it waits for the organizer, as it always answered.
    @Test func aBadgeNamingNoOneIsAnsweredAsBefore() async throws {
        let f = try HandlerFixture()
        let desk = try BadgeDeskCupsTests.desk(f, nil)
        let waiting = await BadgeDeskCupsTests.badge(desk, reason: "reprint")
        #expect(waiting.outcome == .refused && waiting.message?.contains("waiting for the organizer") == true)
        try f.importAndLock()
        let nobody = await BadgeDeskCupsTests.badge(desk, reason: "reprint")
        #expect(nobody.errorCode == .badRequest && nobody.message == "missing attendeeKey or query")
        let unknown = await BadgeDeskCupsTests.badge(desk, reason: "x")
        #expect(unknown.message == "unknown badge reason 'x' (self-service, reprint, print-only)")
    }

    /// A badge printed on another kiosk (Hall B) reaches this one as a signed delta and blocks
    /// self-service here, offline: the guard is replicated state, not this kiosk's memory. The answer
    /// does not name the kiosk (issue 32, item 16).
    @Test func badgeFromAnotherKioskBlocksSelfService() async throws {
        let f = try HandlerFixture.importedAndLocked()
        let hallB = try SigningKeyPair.generate()
        try f.enrollPeer(hallB, name: "Hall B", location: "East door")
        let printed = try f.sign(
            [.badge(BadgePayload(campaignID: f.campaignID, attendeeKey: "grace@example.com", reason: .selfService))],
            key: hallB
        )
        let report = try f.replica.ingest(printed, nowMillis: HandlerFixture.now, clockBoundMillis: 300_000)
        #expect(report.applied.count == 1)

        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        let desk = try BadgeDeskCupsTests.desk(f, nil)
        let response = await BadgeDeskCupsTests.badge(desk, key: "grace@example.com")
        #expect(response.outcome == .badgeAlreadyPrinted)
        // The answer goes to the public screen: it must not tell whoever stands there where the
        // attendee's badge came out (that would say where they went), only that staff can help.
        let message = try #require(response.message)
        #expect(!message.contains("Hall B") && !message.contains("East door"), "\(message)")
        #expect(message.contains("already printed"), "\(message)")
    }

    /// A kiosk may not record a badge under a key that is not a normalized attendee key.
    @Test func badgeDeltaWithABadKeyIsRefused() throws {
        let f = try HandlerFixture.importedAndLocked()
        let hallB = try SigningKeyPair.generate()
        try f.enrollPeer(hallB, name: "Hall B")
        let bad = try f.sign(
            [.badge(BadgePayload(campaignID: f.campaignID, attendeeKey: "Grace@Example.com", reason: .reprint))],
            key: hallB
        )
        let report = try f.replica.ingest(bad, nowMillis: HandlerFixture.now, clockBoundMillis: 300_000)
        #expect(report.applied.isEmpty)
    }
}

/// The attendee keys a desk asked its neighbour to print, across the neighbour's closure.
final class AskedKeys: Sendable {
    let keys = Mutex<[String]>([])
    var all: [String] { keys.withLock { $0 } }
}
