public import MusterCore

/// What the checker needs to judge a Byzantine run (``SimOptions/byzantine``) beyond ``History``:
/// who lied, everything they signed, which of it the rules refuse, where they were seen to fork,
/// and what each honest kiosk's state shows.
public struct ByzantineHistory: Sendable {
    /// The lying kiosks: author → kiosk name (also its name on the roster).
    public var liars: [AuthorID: String]
    /// Every delta a liar signed, all versions at each (author, seq).
    public var versions: [DeltaRef: [SignedDelta]]
    /// The liars' deltas that every replica must refuse (meaning or stamp).
    public var refused: [DeltaRef: [SignedDelta]]
    /// The lowest seq at which honest stores were shown two versions of a liar's delta.
    public var forks: [AuthorID: UInt64]
    /// The attendees as the organizer imported them.
    public var imported: [AttendeeFacts]
    /// Each honest kiosk's facts, by kiosk name.
    public var facts: [String: KioskFacts]
    /// No honest kiosk may stamp later than this (wall clock, skew and the clock bound included):
    /// a far-future stamp must not drag honest clocks along.
    public var stampCeilingMillis: UInt64

    public var liarNames: Set<String> { Set(liars.values) }
}
