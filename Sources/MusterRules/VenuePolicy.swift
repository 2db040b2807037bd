public import MusterCore
public import MusterCrypto

/// What the replica needs to know about its venue to decide whether a delta is acceptable:
/// the venue id every delta must carry and the organizer's key, the only author of organizer kinds.
///
/// Every check here is a pure function of the delta (and of its author's chain and certificate,
/// which every replica holds alike), so every replica refuses the same deltas.
public struct VenuePolicy: Sendable, Equatable {
    public let venue: VenueID
    public let organizer: AuthorID

    /// How long after its enrollment certificate a kiosk may stamp deltas: 400 days. A kiosk's
    /// timestamps lie in [certificate, certificate + this]; one stamped beyond is refused, so a
    /// lying clock can neither back-date a check-in before the kiosk existed nor park a timestamp
    /// at the end of time. A kiosk in use for longer is enrolled again with a new key.
    public static let certificateLifetimeMillis: UInt64 = 400 * 24 * 3_600 * 1_000

    /// Signs the certificate that enrolls `payload.kiosk` (organizer only; see ``EnrollPayload``).
    public static func certificate(
        venue: VenueID,
        organizer: SigningKeyPair,
        payload: EnrollPayload,
        hlc: HLC
    ) -> SignedDelta {
        let delta = Delta(
            venue: venue,
            author: AuthorID(organizer.publicKey),
            seq: 0,
            prev: Delta.genesisPrev,
            hlc: hlc,
            body: .enroll(payload)
        )
        let envelope = delta.envelope()
        return try! SignedDelta(envelope: envelope, signature: organizer.sign(envelope))
    }

    public init(venue: VenueID, organizer: AuthorID) {
        self.venue = venue
        self.organizer = organizer
    }

    /// Refuses a kiosk-authored delta whose content claims what is not the kiosk's to claim.
    ///
    /// - A registration names the attendee by its own email: the key must be that email,
    ///   normalized, and the email plausible. (Otherwise one walk-in could speak for anyone.)
    /// - The attendee key of a check-in, check-out, note, badge or refused scan is a normalized key; a
    ///   not-found scan names none.
    ///
    /// Kiosk name and location are not checked here: they are never read from a payload (the
    /// certificate's are shown), and the campaign is checked against the organizer's locks when
    /// the state is read.
    public func checkMeaning(_ delta: Delta, byDevice: Bool = false) throws(DeltaRejection) {
        let key: String
        switch delta.body {
        case .session(let p):
            try checkSession(
                p,
                author: delta.author,
                byOrganizer: byDevice || delta.author == organizer,
                ref: delta.ref
            )
            return
        case .attendance(let p): key = p.attendeeKey
        case .registration(let p):
            guard EmailAddress.isPlausible(p.email), EmailAddress.key(p.email) == p.presence.attendeeKey else {
                throw DeltaRejection(
                    .notAuthorized,
                    "a registration's attendee key must be its own email, normalized",
                    ref: delta.ref
                )
            }
            return
        case .checkIn(let p): key = p.presence.attendeeKey
        case .checkOut(let p): key = p.presence.attendeeKey
        case .note(let p): key = p.attendeeKey
        case .badge(let p): key = p.attendeeKey
        case .redemption(let p): key = p.attendeeKey
        case .badgeCode(let p):
            // A new code is what a door compares typed codes with: already in that form, printable.
            if let code = p.code {
                guard !code.isEmpty, StoredText.isPrintableASCII(code, atMost: 64), TicketCode.normalize(code) == code
                else {
                    throw DeltaRejection(
                        .notAuthorized,
                        "a badge code must be a normalized ticket code",
                        ref: delta.ref
                    )
                }
            }
            key = p.attendeeKey
        case .scan(let p):
            // A not-found or unlocked attempt names nobody (what was typed is never recorded);
            // every other refusal names the attendee it refused, in a campaign.
            if p.reason == .notFound || p.reason == .notLocked {
                guard p.attendeeKey.isEmpty else {
                    throw DeltaRejection(.notAuthorized, "a \(p.reason) scan names no attendee", ref: delta.ref)
                }
                return
            }
            guard !p.campaignID.isEmpty else {
                throw DeltaRejection(.notAuthorized, "a \(p.reason) scan names its campaign", ref: delta.ref)
            }
            key = p.attendeeKey
        default: return
        }
        // Printable ASCII is what sanitizing leaves as it is (``StoredText/isPrintableASCII(_:atMost:)``).
        let printable =
            StoredText.isPrintableASCII(key)
            || TerminalText.sanitize(key, maxCharacters: key.unicodeScalars.count) == key
        guard !key.isEmpty, printable, EmailAddress.key(key) == key else {
            throw DeltaRejection(.notAuthorized, "the attendee key is not a normalized key", ref: delta.ref)
        }
    }

    /// Who may write which session (issue 36): the organizer and its devices any scheduled session or
    /// spot; a kiosk only a spot of its own, under an id that begins with its key
    /// (``SessionPayload/spotPrefix(_:)``), carrying a code and lasting at most
    /// ``SessionPayload/maxSpotMillis``. So no kiosk can move, close or rename the organizer's sessions
    /// or another kiosk's spots: last-writer-wins by id only ever compares versions of one author's own.
    /// A spot carries no door list and no registrations (those are the organizer's).
    public func checkSession(
        _ session: SessionPayload,
        author: AuthorID,
        byOrganizer: Bool,
        ref: DeltaRef
    ) throws(DeltaRejection) {
        let ownSpot = session.id.hasPrefix(SessionPayload.spotPrefix(author))
        if byOrganizer {
            // The organizer's ids never fall in a kiosk's space, so a spot's author is always its id's.
            guard !session.id.hasPrefix("spot-") else {
                throw DeltaRejection(.notAuthorized, "a spot- session id belongs to a kiosk", ref: ref)
            }
            return
        }
        guard ownSpot, session.code != nil, !session.registeredOnly, session.doors.isEmpty,
            session.endMillis - session.startMillis <= SessionPayload.maxSpotMillis
        else {
            throw DeltaRejection(
                .notAuthorized,
                "a kiosk writes only spots of its own (its key's id, a code, at most 4 hours)",
                ref: ref
            )
        }
    }

    /// Refuses a timestamp that does not follow `previous` (the author's delta before this one) or
    /// falls outside the window its `certificate` opens (kiosks; the organizer has none).
    public func checkTime(_ hlc: HLC, after previous: HLC?, certificate: HLC?, ref: DeltaRef) throws(DeltaRejection) {
        if let previous, hlc <= previous {
            throw DeltaRejection(
                .badTimestamp,
                "timestamp \(hlc) does not follow the author's previous \(previous)",
                ref: ref
            )
        }
        guard let certificate else { return }
        guard hlc >= certificate else {
            throw DeltaRejection(.badTimestamp, "timestamp \(hlc) is earlier than the author's certificate", ref: ref)
        }
        let end = certificate.physicalMillis &+ Self.certificateLifetimeMillis
        guard hlc.physicalMillis <= end else {
            throw DeltaRejection(
                .badTimestamp,
                "timestamp \(hlc) is beyond the certificate's lifetime (\(end) ms)",
                ref: ref
            )
        }
    }

    /// Refuses a delta that belongs to another venue or whose kind its author may not write.
    ///
    /// - Parameter byDevice: the author is one of the organizer's devices on the roster
    ///   (``EnrollRole/organizerDevice``): it writes the organizer's kinds and nothing else.
    public func authorize(_ delta: SignedDelta, byDevice: Bool = false) throws(DeltaRejection) {
        guard delta.venue == venue else {
            throw DeltaRejection(.wrongVenue, "delta belongs to venue \(delta.venue), not \(venue)", ref: delta.ref)
        }
        // A later version's kind: refused here, so this author's chain waits at it until this kiosk is
        // upgraded, while its session and every other author's deltas go on.
        guard let kind = delta.kind else {
            throw DeltaRejection(
                .malformed,
                "delta kind \(delta.rawKind) is a later version's; this kiosk reads it once upgraded",
                ref: delta.ref
            )
        }
        if kind == .enroll {
            throw DeltaRejection(
                .notAuthorized,
                "an enrollment is a certificate and never part of a log",
                ref: delta.ref
            )
        }
        if byDevice {
            guard kind.isOrganizerWritable else {
                throw DeltaRejection(
                    .notAuthorized,
                    "an organizer device signs organizer deltas only, not a \(kind)",
                    ref: delta.ref
                )
            }
            return
        }
        if kind.isOrganizerOnly && delta.author != organizer {
            throw DeltaRejection(
                .notAuthorized,
                "a \(kind) delta must be signed by the venue's organizer key or one of its devices",
                ref: delta.ref
            )
        }
    }
}
