import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterDaemon
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

/// An import is all or nothing for any file, against a real daemon and replica: the hostile files of issue 13 are
/// refused whole with their line, and a submission staged over many requests is applied in one transaction or
/// not at all.
@Suite("Import all or nothing (live daemon)")
struct ImportAtomicityLiveTests {
    /// Imports `text` as `muster import FILE --campaign DevConf` does, `chunkSize` deltas per request.
    static func importText(
        _ daemon: LiveDaemon,
        _ text: String,
        chunkSize: Int = 500
    ) async throws -> Result<Imported, ClientError> {
        let path = daemon.directory.file("attendees-\(UUID().uuidString).csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let configPath = daemon.configPath
        let organizer = daemon.organizer
        return try await TestSupport.blocking {
            let client = try ClientContext(configPath: configPath, environment: [:])
            let actions = try OrganizerActions(client, organizer: organizer, chunkSize: chunkSize)
            return Result { () throws(ClientError) in
                let summary = try actions.importFile(path, campaign: "DevConf")
                return Imported(count: summary.imported, campaignCreated: summary.campaignCreated)
            }
        }
    }

    /// The part of an ``ImportSummary`` the tests read.
    struct Imported: Sendable {
        let count: Int
        let campaignCreated: Bool
    }

    /// What a refused import must leave: the attendees and organizer head as they were.
    static func snapshot(_ daemon: LiveDaemon) throws -> (attendees: Int, organizerSeq: UInt64) {
        (try daemon.replica.status().attendees, try daemon.replica.head(of: daemon.venue.organizer).seq)
    }

    @Test(
        "a 600-row file with a hostile field is refused whole, naming its line, and leaves nothing behind",
        arguments: [
            (HostileAttendeeFile.flagNames(rows: 600, line: 550), 550, "first_name"),
            (HostileAttendeeFile.longField(rows: 600, line: 321), 321, "company"),
        ]
    )
    func hostileFileIsRefusedWhole(file: String, line: Int, column: String) async throws {
        let daemon = try await LiveDaemon.importedAndLocked()
        let before = try Self.snapshot(daemon)
        #expect(before.attendees == 2)

        let result = try await Self.importText(daemon, file, chunkSize: 100)
        guard case .failure(let error) = result else {
            Issue.record("the hostile file was imported: \(result)")
            return
        }
        #expect(error.message.contains("line \(line): the value in column \"\(column)\" is 8,000 bytes"), "\(error)")
        #expect(error.message.hasSuffix("nothing was imported"), "\(error)")
        let after = try Self.snapshot(daemon)
        #expect(after == before, "nothing of the 599 good rows was applied")
    }

    @Test("the honest 600-row file staged in 7 requests is applied whole, in one transaction")
    func honestFileStagedInChunksIsAppliedWhole() async throws {
        let daemon = try await LiveDaemon.started()
        let summary = try await Self.importText(daemon, HostileAttendeeFile.honest(rows: 600), chunkSize: 100).get()
        #expect(summary.count == 600)
        #expect(summary.campaignCreated)
        let after = try Self.snapshot(daemon)
        #expect(after.attendees == 600)
        #expect(after.organizerSeq == 601, "the campaign and 600 attendees")
    }

    /// Staged organizer deltas, sent as `muster` sends them, over one raw connection.
    struct Staging {
        let daemon: LiveDaemon
        var signer: DeltaSigner
        var millis: UInt64 = 1_800_000_000_000

        init(_ daemon: LiveDaemon) throws {
            self.daemon = daemon
            signer = DeltaSigner(
                venue: daemon.venue.venue,
                keyPair: daemon.organizer,
                head: try daemon.replica.head(of: daemon.venue.organizer)
            )
        }

        /// The attendees `p<index>@example.com` of `range`, signed on from the last batch.
        mutating func attendees(_ range: Range<Int>) throws -> [WireDelta] {
            let bodies = range.map {
                Bodies.attendee("c1", email: "p\($0)@example.com", first: "P", last: "\($0)", status: nil)
            }
            let signed = try signer.sign(bodies, fromMillis: millis + 1)
            millis += UInt64(range.count)
            return signed.map(WireDelta.init)
        }

        /// The attendees of two ranges, signed one after the other on a fresh staging of `daemon`.
        static func batches(
            of daemon: LiveDaemon,
            _ first: Range<Int>,
            _ second: Range<Int>
        ) throws -> ([WireDelta], [WireDelta]) {
            var staging = try Staging(daemon)
            return (try staging.attendees(first), try staging.attendees(second))
        }

        static func request(_ deltas: [WireDelta], stage: Bool, staged: Int? = nil) -> ControlRequest {
            .submit(OrganizerSubmission(deltas: deltas, step: stage ? .stage : .apply(expectingStaged: staged)))
        }
    }

    @Test("a staged submission whose last request is refused applies nothing, and the stage is gone")
    func refusedLastRequestDropsTheStage() async throws {
        let daemon = try await LiveDaemon.started()
        let (first, second) = try Staging.batches(of: daemon, 0..<50, 50..<100)
        // The last request carries a delta signed by a key that is not the organizer's.
        let stranger = try SigningKeyPair.generate()
        var rogue = DeltaSigner(venue: daemon.venue.venue, startingLogOf: stranger)
        let forged = try rogue.sign(
            Bodies.attendee("c1", email: "eve@example.com", first: "Eve", last: "Mallory", status: nil),
            hlc: HLC(physicalMillis: 1_800_000_001_000, logical: 0)
        )
        let forgedWire = WireDelta(forged)
        let path = daemon.socketPath
        let responses = try await TestSupport.blocking {
            let client = ControlClient(path: path)
            return [
                try client.send(Staging.request(first, stage: true)),
                try client.send(Staging.request(second, stage: true)),
                try client.send(Staging.request([forgedWire], stage: false, staged: 100)),
                // The refusal emptied the stage: completing it now is refused too.
                try client.send(Staging.request([], stage: false, staged: 100)),
            ]
        }
        #expect(responses[0].staged == 50 && responses[0].applied == 0)
        #expect(responses[1].staged == 100)
        #expect(responses[2].outcome == .error && responses[2].errorCode == .rejected)
        #expect(responses[3].outcome == .error && responses[3].errorCode == .staleHead)
        #expect(try Self.snapshot(daemon) == (0, 0), "nothing staged was ever applied")
    }

    @Test("a stage belongs to its connection: a new connection cannot complete it, and nothing is applied")
    func stageDiesWithItsConnection() async throws {
        let daemon = try await LiveDaemon.started()
        let (first, last) = try Staging.batches(of: daemon, 0..<50, 50..<60)
        let staged = try await daemon.send(Staging.request(first, stage: true))
        let completed = try await daemon.send(Staging.request(last, stage: false, staged: 50))
        #expect(staged.staged == 50)
        #expect(completed.outcome == .error && completed.errorCode == .staleHead, "\(completed)")
        #expect(completed.message?.contains("nothing was applied") == true)
        #expect(try Self.snapshot(daemon) == (0, 0))
    }
}
