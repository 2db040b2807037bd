import MusterCore
import MusterCrypto

/// Limits of the sync protocol.
public enum SyncLimits {
    /// Largest frame on the wire (an encrypted batch of deltas), once the peer's certificate is
    /// admitted. Before that a peer is held to ``maxCredentialsFrameBytes``: anyone with the network
    /// key completes the handshake with a throwaway key, and 64 such connections each sending one
    /// frame this large took a kiosk from 49 to 923 MiB, past its unit's `MemoryMax=512M`.
    public static let maxFrameBytes: UInt32 = 8 * 1024 * 1024
    /// Largest frame after the handshake and before the peer's certificate is admitted (see
    /// ``HandshakeGate``): one sealed message holding one signed delta, the peer's credentials or the
    /// revocation shown to a revoked kiosk (a tag byte, the delta, secretstream's 17 bytes): about
    /// 16.7 KB, so the 64 unauthenticated connections hold about 1 MiB between them.
    public static let maxCredentialsFrameBytes = 1 + SignedDelta.maxEncodedBytes + SecretStreamReceiver.overheadBytes
    /// A refused, revoked peer's appeal: one `deltas` message of one signed delta (its list count
    /// takes a few bytes more than the credentials' tag).
    public static let maxAppealFrameBytes = maxCredentialsFrameBytes + 8
    /// Largest frame read in a session under a retired network key, which only hands over the
    /// roster and the newer keys (``NetworkKeyRing``): a roster of the 1,000 certificates a message
    /// may hold is about 540 KB at the longest names and locations, and 1 MiB also holds some 70
    /// revocations of the largest venue. A larger frame is not read; the session ends at its linger.
    public static let maxRekeyFrameBytes = 1024 * 1024
    /// Deltas per batch when catching a peer up.
    public static let batchSize = 500
    /// Most deltas stored in one group commit of peers' batches (a catch-up page is 500).
    public static let groupCommitDeltas = 4_000
    /// Deltas of one session's messages that may wait for the store while its reader goes on
    /// reading: what a peer sent while a group commit ran joins the next group, so a kiosk that is
    /// behind stores each author's deltas in runs, not one by one (a run pays one signature and one
    /// author lookup; BENCHMARKS.md, "Store and lookups", interleaved ingest). Past it the reader
    /// waits: the back-pressure on the peer. A check-in at the door does not wait for such a group:
    /// it goes in at the group's next author run (`Replica.writeForPerson`; 79dac39, BENCHMARKS.md,
    /// "What each optimisation gained").
    /// Deltas a refused, revoked peer may hand over (the organizer's version of the seq its
    /// revocation sits at; see `SyncService.appeal`): one is what an honest kiosk sends.
    public static let appealDeltas = 1
    public static let readAheadDeltas = 1_000
    /// Deltas queued for one peer before it is taken for not reading and disconnected.
    public static let maxQueuedDeltas = 100_000
    /// A peer silent for this long is declared gone and its session closed: with a heartbeat after
    /// 2 s of our silence and the watchdog checking every 250 ms, a frozen peer is gone within 5 s,
    /// and a live but busy one has 2.5 s of slack for its heartbeat.
    public static let silenceTimeout: Duration = .milliseconds(4_500)
    /// How long a session may wait for the peer's hello before it is closed, to be dialed again.
    /// Until the hello, the core repairs nothing from the peer, however much its heads say it
    /// holds: a session whose hello was lost (the simulator's frame loss; a peer that never sends
    /// one) was a session the kiosk stayed short through, for good (RELIABILITY.md, finding 32).
    /// Generous: a reader held back by our own slow store reads the hello late.
    public static let helloTimeout: Duration = .seconds(30)
    /// One heartbeat exchange per interval on an idle session: a ping, its answer, and their TCP ACKs
    /// (Linux acknowledges at once after an idle gap, so the answer seldom carries one): about 280
    /// bytes on the wire, 140 B/s per peer (BENCHMARKS.md, idle traffic).
    public static let heartbeatInterval: Duration = .seconds(2)
    /// How often heads are exchanged to repair anything missed (with a peer that already knows our
    /// state and agrees with our digest, nothing is sent).
    public static let antiEntropyInterval: Duration = .seconds(5)
    /// How long a change of our sessions waits to be announced, so that a burst of changes is one
    /// announcement (see ``SyncMessage/sessions(_:)``).
    public static let sessionsAnnouncementDelay: Duration = .milliseconds(20)
    /// A connection that has not finished the handshake this long after accept is closed.
    public static let handshakeTimeout: Duration = .seconds(5)
    /// The listening socket's accept queue. A stranger's flood of connects, or a whole venue
    /// restarting at once, arrives faster than the accept loop takes it; on a full queue the kernel
    /// drops the TCP handshake's last ACK and it is retried 1 s, then 3 s later, so an honest kiosk
    /// waits seconds before it is even accepted. It was 64: 300 trickling strangers overflowed it
    /// about 3,500 times in 24 s (`TcpExtListenOverflows`) and kept connections alive 2 s past the
    /// handshake deadline; at 1,024, none (RELIABILITY.md, finding 23). The kernel caps it at
    /// `net.core.somaxconn` (4,096 on current kernels); the extras are closed at accept by
    /// ``HandshakeAdmission``, so a long queue holds no more connections for long than a short one.
    public static let listenBacklog: Int32 = 1_024
    /// How long a network key stays accepted after a revocation announced a newer one: 48 hours
    /// from the revocation's timestamp, time enough for a kiosk stored overnight between two event
    /// days to come back. A session under such a key only hands over the newer key (see
    /// ``NetworkKeyRing``); after it, a kiosk still on the old key is enrolled again.
    public static let retiredKeyGraceMillis: UInt64 = 48 * 3_600 * 1_000
    /// How long a session under a retired key waits for the peer's own newer keys before closing.
    public static let rekeyLinger: Duration = .seconds(2)
    /// How often one peer's report of our own chain is written to the replica (``HeldElsewhereReports``):
    /// seldom enough that a busy kiosk's check-ins do not each cost a transaction per peer.
    public static let heldElsewhereWriteInterval: Duration = .seconds(2)

    /// How often a kiosk takes its status for the fleet (``KioskStatus``); it signs and sends it to its
    /// peers only when it is news (``KioskStatus/isNews(after:refreshMillis:)``).
    public static let statusInterval: Duration = .seconds(30)
    /// How often an unchanged status is signed and sent all the same: free disk and the printer move
    /// slowly, a change goes out within ``statusInterval``, and `muster fleet` says when each was signed.
    public static let statusRefresh: Duration = .seconds(300)
}
