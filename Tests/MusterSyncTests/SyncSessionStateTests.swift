import MusterCore
import MusterCrypto
import MusterStore
import Testing

@testable import MusterSync

/// The replication state machine without sockets.
struct SyncSessionStateTests {
    static let venue = VenueID.random()

    static func log(_ count: Int, key: SigningKeyPair) -> [SignedDelta] {
        var signer = DeltaSigner(venue: venue, keyPair: key, head: .empty(AuthorID(key.publicKey)))
        return (1...count).map { index in
            signer.sign(
                .note(NotePayload(campaignID: "c", attendeeKey: "a@example.com", text: "n\(index)")),
                hlc: HLC(physicalMillis: 1_000 + UInt64(index), logical: 0))
        }
    }

    static func head(_ deltas: [SignedDelta]) -> AuthorHead {
        AuthorHead(author: deltas.last!.author, seq: deltas.last!.seq, hash: Blake2b.hash256(deltas.last!.envelope))
    }

    @Test func helloSendsWhatThePeerLacks() throws {
        let a = try SigningKeyPair.generate()
        let b = try SigningKeyPair.generate()
        let logA = Self.log(5, key: a)
        let logB = Self.log(3, key: b)
        var state = SyncSessionState()
        let peerHasA2 = AuthorHead(author: logA[1].author, seq: 2, hash: Blake2b.hash256(logA[1].envelope))
        let actions = state.peerHeads(
            [peerHasA2, Self.head(logB)], epoch: "e1", ours: [Self.head(logA), Self.head(logB)])
        #expect(actions == [.sendRange(author: logA[0].author, after: 2)])
        #expect(state.peerEpoch == "e1")
        #expect(state.peerHas[logA[0].author] == 5)
    }

    @Test func offerPushesConsecutiveDeltasAndRangesOverGaps() throws {
        let a = try SigningKeyPair.generate()
        let logA = Self.log(6, key: a)
        var state = SyncSessionState()
        _ = state.peerHeads([Self.head(Array(logA[0..<3]))], epoch: nil, ours: [Self.head(Array(logA[0..<3]))])
        #expect(state.offer([logA[3]]) == [.send([logA[3]])])
        #expect(state.offer([logA[3]]).isEmpty, "never resend what the peer has")
        #expect(state.offer([logA[5]]) == [.sendRange(author: logA[0].author, after: 4)])
    }

    @Test func receivedDeltasAreNotEchoedBack() throws {
        let a = try SigningKeyPair.generate()
        let logA = Self.log(2, key: a)
        var state = SyncSessionState()
        #expect(state.received(logA) == [.ingest(logA)])
        #expect(state.offer(logA).isEmpty)
    }

    /// What came from a kiosk the peer is in session with is not relayed: that kiosk pushes it.
    @Test func deltasFromAKioskThePeerHearsDirectlyAreNotRelayed() throws {
        let author = try SigningKeyPair.generate()
        let sender = AuthorID(try SigningKeyPair.generate().publicKey)
        let other = AuthorID(try SigningKeyPair.generate().publicKey)
        let log = Self.log(4, key: author)
        var state = SyncSessionState()
        state.peerSessions([sender])
        #expect(state.offer([log[0]], from: sender).isEmpty, "the peer hears it from the sender itself")
        #expect(state.peerHas[log[0].author] == 1, "and is assumed to hold it, as after a send")
        #expect(state.offer([log[1]], from: other) == [.send([log[1]])], "heard from a kiosk the peer has no session with")
        #expect(state.offer([log[2]], from: nil) == [.send([log[2]])], "written here: always pushed")
        state.peerSessions([other])
        #expect(state.offer([log[3]], from: sender) == [.send([log[3]])], "the peer's session with the sender ended")
    }

    @Test func aGapAsksThePeerToResendFromOurHeads() {
        var state = SyncSessionState()
        #expect(state.ingested(rejected: [ReplicaError(.gap, "gap")]) == [.sendHeads])
        #expect(state.ingested(rejected: [ReplicaError(.badSignature, "bad")]).isEmpty)
        #expect(state.ingested(rejected: []).isEmpty)
    }

    @Test func messagesRoundTrip() throws {
        let a = try SigningKeyPair.generate()
        let logA = Self.log(3, key: a)
        for message: SyncMessage in [
            .hello(epoch: "abc", heads: [Self.head(logA)]), .heads([]), .deltas(logA), .ping, .pong,
            .sessions([]), .sessions([logA[0].author, AuthorID(try SigningKeyPair.generate().publicKey)]),
        ] {
            #expect(try SyncMessage.decode(message.encode()) == message)
        }
    }

    @Test func malformedMessagesAreRejected() throws {
        let a = try SigningKeyPair.generate()
        let encoded = SyncMessage.deltas(Self.log(2, key: a)).encode()
        #expect(throws: DecodeError.self) { try SyncMessage.decode([]) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode([99]) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode(Array(encoded.dropLast())) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode(encoded + [0]) }
        var huge = ByteWriter()
        huge.write(UInt8(3))
        huge.writeVarint(UInt64(SyncMessage.maxDeltas + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(huge.bytes) }
        var crowd = ByteWriter()
        crowd.write(UInt8(10))
        crowd.writeVarint(UInt64(SyncMessage.maxSessions + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(crowd.bytes) }
        let sessions = SyncMessage.sessions([AuthorID(a.publicKey)]).encode()
        #expect(throws: DecodeError.self) { try SyncMessage.decode(Array(sessions.dropLast())) }
    }
}
