import Foundation
public import Logging
public import MusterControl
public import MusterCore
public import MusterCrypto
import MusterRules
public import MusterStore
import MusterSync
import Synchronization

/// Carries out control requests against the replica: the kiosk's own writes (check-in, check-out,
/// walk-in registration, note) and the organizer's signed submissions.
///
/// Each write decides and appends in one transaction (see ``Replica/appendLocal(keyPair:nowMillis:nextHLC:_:)``)
/// and returns only after the commit, so every acknowledgement it gives is durable.
public final class ControlHandler: Sendable {
    public let replica: Replica
    public let keyPair: SigningKeyPair
    public let config: KioskConfig
    public let clock: HybridLogicalClock
    let logger: Logger
    /// Told about every delta this service stored, in order, once committed (the sync layer pushes them).
    let published: @Sendable ([SignedDelta]) -> Void
    /// The peers currently in session, for status.
    let peers: @Sendable () -> [String]
    /// The same peers in detail (how far behind, digest match), computed when asked.
    let peerDetails: @Sendable () -> [PeerDetail]
    /// The network key generation sync dials with, for status.
    let keyGeneration: @Sendable () -> UInt64
    /// Whether this kiosk works alone (``Solitude``), for status and the screen.
    let solitude: @Sendable () -> Solitude?
    /// When each peer kiosk was last heard this run, for `muster fleet`.
    let heard: @Sendable () -> [AuthorID: UInt64]
    /// When set (`MUSTER_COMMIT_TRACE`), every committed local write and submission is traced.
    let commitTrace: CommitTrace?
    /// Every kiosk's newest signed status held (``KioskStatus``), for `muster fleet` and `muster lock`.
    let fleet: @Sendable () -> [KioskStatus]
    /// Waits until this many kiosks (this one included) hold every local write published so far,
    /// within ``KioskConfig/ackWait`` (`ack_copies`, ``acknowledge(_:)``).
    let awaitCopies: @Sendable (Int) async -> CopyOutcome
    /// Not-found scans held for the audit (see ``NotFoundTally``).
    let notFoundTally = Mutex(NotFoundTally())

    public init(
        replica: Replica,
        keyPair: SigningKeyPair,
        config: KioskConfig,
        clock: HybridLogicalClock,
        logger: Logger,
        published: @escaping @Sendable ([SignedDelta]) -> Void = { _ in },
        peers: @escaping @Sendable () -> [String] = { [] },
        peerDetails: @escaping @Sendable () -> [PeerDetail] = { [] },
        keyGeneration: @escaping @Sendable () -> UInt64 = { 0 },
        solitude: @escaping @Sendable () -> Solitude? = { nil },
        heard: @escaping @Sendable () -> [AuthorID: UInt64] = { [:] },
        awaitCopies: @escaping @Sendable (Int) async -> CopyOutcome = { _ in .notAsked },
        fleet: @escaping @Sendable () -> [KioskStatus] = { [] },
        commitTrace: CommitTrace? = nil
    ) {
        self.fleet = fleet
        self.awaitCopies = awaitCopies
        self.solitude = solitude
        self.heard = heard
        self.commitTrace = commitTrace
        self.peerDetails = peerDetails
        self.keyGeneration = keyGeneration
        self.replica = replica
        self.keyPair = keyPair
        self.config = config
        self.clock = clock
        self.logger = logger
        self.published = published
        self.peers = peers
    }

    public var author: AuthorID { AuthorID(keyPair.publicKey) }

    /// `response`, once the write it acknowledges is held by `ack_copies` kiosks (or the wait for them
    /// ended): "Checked in" on the screen means the check-in survives the loss of this kiosk's disk.
    /// Answers that wrote nothing go at once.
    public func acknowledge(_ response: ControlResponse) async -> ControlResponse {
        guard response.recordsLocalWrite else { return response }
        let outcome = await awaitCopies(config.ackCopies)
        if outcome == .unanswered {
            logger.debug("no peer acknowledged in time; saved here only", metadata: ["copies": "\(config.ackCopies)"])
        }
        return response
    }

    /// Carries out one request that stands alone (no staged submission before it).
    public func handle(_ request: ControlRequest) -> ControlResponse {
        var stage = SubmissionStage()
        return handle(request, stage: &stage)
    }

    /// Carries out one request of a connection whose staged organizer deltas are `stage` (see
    /// ``SubmissionStage``); a `submit` adds to it or applies it, and any failed `submit` empties it.
    public func handle(_ request: ControlRequest, stage: inout SubmissionStage) -> ControlResponse {
        do {
            switch request {
            // A door in a zone that follows a schedule of sessions records attendance (issue 36).
            case .checkIn(let query):
                return try isSessionDoor() ? try attend(query: query, code: nil) : try checkIn(query: query)
            case .attend(let query, let code): return try attend(query: query, code: code)
            case .openSpot(let name, let seconds): return try openSpot(name: name, seconds: seconds)
            case .confirmCheckIn(let query, let staff): return try confirmCheckIn(query: query, staff: staff)
            case .checkOut(let query): return try checkOut(query: query)
            case .redeem(let addon, let query): return try redeem(addon, for: query)
            case .checkInParty(let query): return try checkInParty(query: query)
            case .register(let walkIn): return try register(walkIn)
            case .note(let attendeeKey, let text): return try note(attendeeKey: attendeeKey, text: text)
            case .head(let author): return try head(author: author)
            case .submit(let submission):
                do {
                    return try submit(submission, stage: &stage)
                } catch {
                    _ = stage.take()
                    throw error
                }
            case .badge: return Self.noBadgeDesk
            case .lookup(let query): return try screenLookup(query: query)
            case .screen: return try screenContext()
            case .replaceBadge(let query, let restore): return try replaceBadge(query: query, restore: restore)
            case .status:
                let status = StatusAnswer(
                    kioskName: config.name,
                    kioskKey: keyPair.publicKey.hex,
                    peers: peers(),
                    peerDetails: peerDetails(),
                    keyGeneration: keyGeneration(),
                    solitude: solitude(),
                    heardMillis: Dictionary(uniqueKeysWithValues: heard().map { ($0.key.hex, $0.value) }),
                    fleet: fleet().map(FleetStatus.init).sorted { $0.key < $1.key }
                )
                return .status(status)
            case .ping:
                return .pong(PongAnswer(kioskName: config.name, kioskKey: keyPair.publicKey.hex, peers: peers()))
            }
        } catch let error as ReplicaError {
            logger.error(
                "control request failed",
                metadata: ["op": "\(request.operation.rawValue)", "error": "\(error)"]
            )
            return .failure(Self.code(of: error), error.message)
        } catch let error as RequestError {
            return .failure(error.code, error.message)
        } catch {
            logger.error(
                "control request failed",
                metadata: ["op": "\(request.operation.rawValue)", "error": "\(error)"]
            )
            return .failure(.internal, "\(error)")
        }
    }

    /// The answer to a line that names a known operation without what it needs
    /// (``ControlRequestError/Code/incomplete``): a bad request, in the words the line was refused with.
    public func answer(incomplete error: ControlRequestError) -> ControlResponse {
        error.operation == .badge ? Self.noBadgeDesk : .failure(.badRequest, error.message)
    }

    /// Printing waits on the printer, so the control server hands `badge` to its ``BadgeDesk``; a daemon
    /// without one answers every `badge` with this.
    static let noBadgeDesk = ControlResponse.failure(.badRequest, "this daemon prints no badges (no badge desk)")

    /// A request refused before it reached the replica: what to answer, and under which code.
    struct RequestError: Error {
        let code: ControlErrorCode
        let message: String

        init(_ code: ControlErrorCode, _ message: String) {
            self.code = code
            self.message = message
        }

        /// A bad request.
        init(_ message: String) { self.init(.badRequest, message) }
    }

    /// The control protocol's code for a replica failure.
    static func code(of error: ReplicaError) -> ControlErrorCode {
        switch error.code {
        case .open, .sqlite, .diskFull: .storage
        case .staleHead, .gap, .brokenChain, .fork: .staleHead
        case .malformed: .badRequest
        case .badSignature, .wrongVenue, .notAuthorized, .notEnrolled, .revoked, .badTimestamp, .forked: .rejected
        }
    }

    var presenceTemplate: (String, String, String) -> PresencePayload {
        { campaign, key, status in
            PresencePayload(
                campaignID: campaign,
                attendeeKey: key,
                kioskName: self.config.name,
                location: self.config.location,
                memberStatus: status
            )
        }
    }

    func append(
        _ decide: (ReplicaView) throws -> LocalWrite<ControlResponse>
    )
        throws(ReplicaError) -> ControlResponse
    {
        let now = clock.nowMillis
        let (response, delta) = try replica.appendLocal(
            keyPair: keyPair,
            nowMillis: now,
            nextHLC: { clock.tick(after: $0) },
            decide
        )
        if let delta {
            commitTrace?.record([delta], origin: .local)
            // Debug, not info: at a busy door this was most of the log, and formatting it cost CPU
            // in a burst. The replica is the record of every write.
            logger.debug("appended", metadata: ["kind": "\(delta.kindName)", "seq": "\(delta.seq)"])
            published([delta])
        }
        return response
    }

    /// The answer while no campaign is locked.
    static let waitingForLock = ControlResponse.refused(
        RefusalAnswer("This kiosk is waiting for the organizer to pick the event.")
    )
    static let noMatch = RefusalAnswer("No ticket or email matches.")

    func checkOut(query: String) throws(ReplicaError) -> ControlResponse {
        try append { view in
            guard let lock = try view.lock(), let campaign = lock.campaignID else {
                return .answer(Self.waitingForLock)
            }
            guard let record = try view.lookup(campaignID: campaign, query: query) else {
                return .answer(.notFound(Self.noMatch))
            }
            let inside =
                lock.rules == nil
                ? record.isInside : record.openArrivals.contains { $0.location == self.config.location }
            guard inside else { return .answer(.notCheckedIn(record.summary)) }
            // The check-out names the arrivals it ends (each author's newest, which ends its earlier
            // ones): with door rules, those in this kiosk's zone; without, every one (leaving the venue).
            let ends = DoorPolicy.checkOutEnds(record.openArrivals, zone: config.location, rules: lock.rules)
            let body = DeltaBody.checkOut(
                CheckOutPayload(presenceTemplate(campaign, record.key, lock.checkInStatus), ends: ends)
            )
            return .append(body, answer: .checkedOut(record.summary))
        }
    }

    func note(attendeeKey: String, text: String) throws -> ControlResponse {
        let clean = String(TerminalText.sanitize(text, maxCharacters: Limits.maxNoteCharacters).trimmingWhitespace())
        guard !clean.isEmpty else { throw RequestError("the note is empty") }
        return try append { view in
            guard let campaign = try view.lock()?.campaignID,
                let record = try view.attendee(campaignID: campaign, key: attendeeKey), record.isCheckedIn
            else {
                return .answer(.refused(RefusalAnswer("A note can only follow a check-in.")))
            }
            let body = DeltaBody.note(NotePayload(campaignID: campaign, attendeeKey: record.key, text: clean))
            return .append(body, answer: .noted)
        }
    }

    func head(author: AuthorID) throws -> ControlResponse {
        let head = try replica.head(of: author)
        return .head(seq: head.seq, hash: head.hash)
    }

    static func refusal(_ decision: CheckInPolicy.Decision) -> ControlResponse {
        guard case .refuse(let message) = decision else { return .failure(.internal, "no refusal to report") }
        return .refused(RefusalAnswer(message))
    }
}
