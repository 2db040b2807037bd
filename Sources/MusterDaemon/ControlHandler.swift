import Foundation
public import Logging
public import MusterControl
public import MusterCore
public import MusterCrypto
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
    /// When set (`MUSTER_COMMIT_TRACE`), every committed local write and submission is traced.
    let commitTrace: CommitTrace?
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
        commitTrace: CommitTrace? = nil
    ) {
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

    /// Carries out one request that stands alone (no staged submission before it).
    public func handle(_ request: ControlRequest) -> ControlResponse {
        var stage = SubmissionStage()
        return handle(request, stage: &stage)
    }

    /// Carries out one request of a connection whose staged organizer deltas are `stage` (see
    /// ``SubmissionStage``); a `submit` adds to it or applies it, and any failed `submit` empties it.
    public func handle(_ request: ControlRequest, stage: inout SubmissionStage) -> ControlResponse {
        do {
            switch request.op {
            case .checkIn: return try checkIn(query: try required(request.query, "query"))
            case .checkOut: return try checkOut(query: try required(request.query, "query"))
            case .register: return try register(request)
            case .note:
                return try note(attendeeKey: try required(request.attendeeKey, "attendeeKey"), text: request.text ?? "")
            case .head: return try head(author: try required(request.author, "author"))
            case .submit:
                do {
                    return try submit(request, stage: &stage)
                } catch {
                    _ = stage.take()
                    throw error
                }
            case .badge:
                // Printing waits on the printer, so the control server hands `badge` to its BadgeDesk.
                return .failure(.badRequest, "this daemon prints no badges (no badge desk)")
            case .lookup: return try screenLookup(query: try required(request.query, "query"))
            case .screen: return try screenContext()
            case .status, .ping:
                var response = ControlResponse(outcome: request.op == .ping ? .pong : .status)
                response.kioskName = config.name
                response.kioskKey = keyPair.publicKey.hex
                response.peers = peers()
                if request.op == .status {
                    response.peerDetails = peerDetails()
                    response.keyGeneration = keyGeneration()
                }
                return response
            }
        } catch let error as ReplicaError {
            logger.error("control request failed", metadata: ["op": "\(request.op.rawValue)", "error": "\(error)"])
            return .failure(Self.code(of: error), error.message)
        } catch let error as RequestError {
            return .failure(error.code, error.message)
        } catch {
            logger.error("control request failed", metadata: ["op": "\(request.op.rawValue)", "error": "\(error)"])
            return .failure(.internal, "\(error)")
        }
    }

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

    private func required(_ value: String?, _ name: String) throws(RequestError) -> String {
        guard let value, !value.trimmingWhitespace().isEmpty else { throw RequestError("missing \(name)") }
        return value
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
            logger.debug("appended", metadata: ["kind": "\(delta.kind)", "seq": "\(delta.seq)"])
            published([delta])
        }
        return response
    }

    func checkOut(query: String) throws(ReplicaError) -> ControlResponse {
        try append { view in
            guard let lock = try view.lock(), let campaign = lock.campaignID else {
                return .answer(
                    ControlResponse(
                        outcome: .refused,
                        message: "This kiosk is waiting for the organizer to pick the event."
                    )
                )
            }
            guard let record = try view.lookup(campaignID: campaign, query: query) else {
                return .answer(ControlResponse(outcome: .notFound, message: "No ticket or email matches."))
            }
            let inside =
                lock.rules == nil
                ? record.isInside : record.openArrivals.contains { $0.location == self.config.location }
            var response = ControlResponse(outcome: inside ? .checkedOut : .notCheckedIn)
            response.attendee = record.summary
            guard inside else { return .answer(response) }
            // The check-out names the arrivals it ends (each author's newest, which ends its earlier
            // ones): with door rules, those in this kiosk's zone; without, every one (leaving the venue).
            let ends = DoorPolicy.checkOutEnds(record.openArrivals, zone: config.location, rules: lock.rules)
            let body = DeltaBody.checkOut(
                CheckOutPayload(presenceTemplate(campaign, record.key, lock.checkInStatus), ends: ends)
            )
            return .append(body, answer: response)
        }
    }

    func register(_ request: ControlRequest) throws -> ControlResponse {
        let first = TerminalText.sanitize(request.firstName ?? "").trimmingWhitespace()
        let last = TerminalText.sanitize(request.lastName ?? "").trimmingWhitespace()
        let company = TerminalText.sanitize(request.company ?? "").trimmingWhitespace()
        let email = (request.email ?? "").trimmingWhitespace()
        guard !first.isEmpty, !last.isEmpty else { throw RequestError("first and last name are required") }
        guard EmailAddress.isPlausible(email) else {
            throw RequestError("'\(TerminalText.sanitize(email))' is not an email address")
        }
        let now = clock.nowMillis
        return try append { view in
            let window = CheckInPolicy.window(lock: try view.lock(), nowMillis: now)
            guard case .allow(let campaign, let status) = window else { return .answer(Self.refusal(window)) }
            let key = EmailAddress.key(email)
            let presence = presenceTemplate(campaign, key, status)
            let existingRecord = try view.attendee(campaignID: campaign, key: key)
            // The door rules bind walk-ins too (capacity, zone window, entries, re-entry); an
            // invalid or already present registration keeps its own answer below.
            if let refusal = try walkInRefusal(view, campaign: campaign, key: key, existing: existingRecord, now: now) {
                return refusal
            }
            if let existing = existingRecord {
                var response = ControlResponse(outcome: existing.isInside ? .alreadyCheckedIn : .checkedIn)
                response.attendee = existing.summary
                response.message = "You are already registered for this event."
                guard existing.admitted else {
                    response.outcome = .refused
                    response.message = "This registration is not valid for check-in. Please see the staff desk."
                    return .answer(response)
                }
                if existing.isInside {
                    response.checkIn = existing.firstArrival.map(\.summary)
                    return .answer(response)
                }
                response.checkIn = PresenceSummary(atMillis: now, kioskName: config.name, location: config.location)
                return .append(DeltaBody.checkIn(CheckInPayload(presence)), answer: response)
            }
            let ticket = TicketCode.walkIn()
            var response = ControlResponse(outcome: .registered)
            response.ticket = ticket
            response.attendee = AttendeeSummary(
                campaignID: campaign,
                key: key,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket
            )
            response.checkIn = PresenceSummary(atMillis: now, kioskName: config.name, location: config.location)
            let payload = RegistrationPayload(
                presence: presence,
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket
            )
            return .append(DeltaBody.registration(payload), answer: response)
        }
    }

    func note(attendeeKey: String, text: String) throws -> ControlResponse {
        let clean = String(TerminalText.sanitize(text, maxCharacters: Limits.maxNoteCharacters).trimmingWhitespace())
        guard !clean.isEmpty else { throw RequestError("the note is empty") }
        return try append { view in
            guard let campaign = try view.lock()?.campaignID,
                let record = try view.attendee(campaignID: campaign, key: attendeeKey), record.isCheckedIn
            else {
                return .answer(ControlResponse(outcome: .refused, message: "A note can only follow a check-in."))
            }
            let body = DeltaBody.note(NotePayload(campaignID: campaign, attendeeKey: record.key, text: clean))
            return .append(body, answer: ControlResponse(outcome: .noted))
        }
    }

    func head(author hex: String) throws -> ControlResponse {
        guard let author = AuthorID(hex: hex) else { throw RequestError("author must be a hex public key") }
        let head = try replica.head(of: author)
        var response = ControlResponse(outcome: .head)
        response.headSeq = head.seq
        response.headHash = Hex.encode(head.hash)
        return response
    }

    /// Organizer deltas built and signed by `muster`: staged on the connection, or applied together with
    /// everything staged before them, all or nothing in one transaction.
    func submit(_ request: ControlRequest, stage: inout SubmissionStage) throws -> ControlResponse {
        let device = try request.certificate.map(admitDevice)
        let submitted = try signedDeltas(request.deltas ?? [], device: device)
        if request.stage == true {
            try stage.add(submitted)
            var response = ControlResponse(outcome: .submitted)
            response.applied = 0
            response.staged = stage.count
            return response
        }
        let held = stage.take()
        if let expected = request.staged, expected != held.count {
            throw RequestError(
                .staleHead,
                "stale organizer head (this connection holds \(held.count) staged deltas, not \(expected): the "
                    + "connection was reset); nothing was applied; rebuild and resubmit"
            )
        }
        return try submit(held.isEmpty ? submitted : held + submitted)
    }

    /// Records an organizer device's certificate on the roster (it is gossiped to the peers with the
    /// device's first deltas); returns the device's key.
    private func admitDevice(_ wire: WireDelta) throws(RequestError) -> AuthorID {
        guard let certificate = Self.signedDelta(wire),
            case .enroll(let payload)? = try? certificate.decode().body, payload.role == .organizerDevice
        else { throw RequestError(.rejected, "the certificate is not an organizer device's enrollment") }
        do {
            _ = try replica.admitCertificate(certificate, for: payload.kiosk)
        } catch {
            throw RequestError(.rejected, "the organizer device's certificate is refused: \(error.message)")
        }
        return payload.kiosk
    }

    private static func signedDelta(_ wire: WireDelta) -> SignedDelta? {
        guard let envelope = Hex.decode(wire.envelope), let signature = Hex.decode(wire.signature) else { return nil }
        return try? SignedDelta(envelope: envelope, signature: signature)
    }

    /// Checks the shape and author of submitted deltas, before anything is staged or applied: the
    /// organizer key, or the organizer device whose certificate came with the request.
    private func signedDeltas(_ wire: [WireDelta], device: AuthorID?) throws(RequestError) -> [SignedDelta] {
        var deltas: [SignedDelta] = []
        deltas.reserveCapacity(wire.count)
        for item in wire {
            guard let delta = Self.signedDelta(item) else { throw RequestError("a submitted delta is malformed") }
            guard delta.author == replica.policy.organizer || delta.author == device else {
                throw RequestError(
                    .rejected,
                    "only deltas signed by the venue's organizer key or an organizer device can be submitted"
                )
            }
            deltas.append(delta)
        }
        return deltas
    }

    /// Applies organizer deltas in one transaction: all or nothing.
    func submit(_ deltas: [SignedDelta]) throws -> ControlResponse {
        do {
            let report = try replica.ingest(
                deltas,
                nowMillis: clock.nowMillis,
                clockBoundMillis: clock.boundMillis,
                atomic: true
            )
            commitTrace?.record(report.applied, origin: .local)
            if let hlc = report.newestAcceptedHLC { clock.observe(hlc) }
            if !report.applied.isEmpty { published(report.applied) }
            for ref in report.clockWarnings {
                logger.warning("delta stamped ahead of local time beyond the bound", metadata: ["delta": "\(ref)"])
            }
            logger.info(
                "organizer submission",
                metadata: ["applied": "\(report.applied.count)", "duplicates": "\(report.duplicates)"]
            )
            var response = ControlResponse(outcome: .submitted)
            response.applied = report.applied.count
            return response
        } catch {
            guard Self.isStaleHead(error.code) else { throw error }
            throw RequestError(.staleHead, "stale organizer head (\(error.message)); rebuild and resubmit")
        }
    }

    static func isStaleHead(_ code: ReplicaError.Code) -> Bool {
        code == .gap || code == .brokenChain || code == .fork
    }

    static func refusal(_ decision: CheckInPolicy.Decision) -> ControlResponse {
        guard case .refuse(let message) = decision else { return .failure(.internal, "no refusal to report") }
        return ControlResponse(outcome: .refused, message: message)
    }
}
