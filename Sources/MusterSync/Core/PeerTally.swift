/// How many deltas one peer has sent this kiosk, and how many of them the replica already held, since
/// this kiosk started: counted per peer key, across every session with that peer.
///
/// Counting per session made `muster status` lose a session's count when it ended and, when a
/// duplicate session replaced a live one, count the old one twice (the core and the driver both
/// carried it over): the full-mesh test read 19 deltas where 20 had arrived, or 94 where 52 had
/// (issue 32). One tally per key, kept by the core alone, has neither failure.
public struct PeerTally: Sendable, Equatable {
    public internal(set) var deltasReceived = 0
    public internal(set) var copiesReceived = 0

    public init(deltasReceived: Int = 0, copiesReceived: Int = 0) {
        self.deltasReceived = deltasReceived
        self.copiesReceived = copiesReceived
    }
}
