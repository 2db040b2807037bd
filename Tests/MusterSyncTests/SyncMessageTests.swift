import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// The sync protocol's messages: round trips and bounded decoding.
struct SyncMessageTests {

    @Test func messagesRoundTrip() throws {
        let a = try SigningKeyPair.generate()
        let logA = CoreTestKit.log(3, key: a)
        for message: SyncMessage in [
            .hello(epoch: "abc", heads: [CoreTestKit.head(logA)]), .heads([]), .deltas(logA), .ping, .pong,
            .sessions([]), .sessions([logA[0].author, AuthorID(try SigningKeyPair.generate().publicKey)]),
            .rekey([]), .rekey(logA), .roster(logA), .status([]),
            .status([
                KioskStatus(kiosk: AuthorID(a.publicKey), printer: "none", freeDiskBytes: 7, signedMillis: 9)
                    .signed(by: a, venue: CoreTestKit.venue)
            ]),
            .printRequest(RelayedPrint(id: 7, attendeeKey: "ada@example.com", after: 42)),
            .printReply(RelayedPrintReply(id: 7, outcome: .printed, job: 12)),
            .printReply(RelayedPrintReply(id: 8, outcome: .notPrinted, message: "the printer queue badge is stopped")),
        ] {
            #expect(try SyncMessage.decode(message.encode()) == message)
        }
    }

    /// A peer's words in a print reply are bounded: a longer message is cut on a character, and a frame
    /// claiming a longer one, or an outcome no version has, is malformed.
    @Test func printRepliesAreBounded() throws {
        let long = String(repeating: "é", count: 300)
        let reply = RelayedPrintReply(id: 1, outcome: .notPrinted, message: long)
        #expect(reply.message.utf8.count == RelayedPrintReply.maxMessage)
        #expect(reply.message.allSatisfy { $0 == "é" })
        var writer = ByteWriter()
        writer.write(UInt8(19))
        writer.write(UInt64(1))
        writer.write(UInt8(1))
        writer.write(Int64(0))
        writer.write(String(repeating: "x", count: RelayedPrintReply.maxMessage + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(writer.bytes) }
        var unknownOutcome = SyncMessage.printReply(RelayedPrintReply(id: 1, outcome: .printed)).encode()
        unknownOutcome[9] = 9
        #expect(throws: DecodeError.self) { try SyncMessage.decode(unknownOutcome) }
    }

    /// A later version's message (a tag above the newest known) is read whole and ignored, not a
    /// malformed frame: a newer kiosk may say new things without its session with this one closing.
    @Test func aLaterVersionsMessageIsReadWholeAndIgnored() throws {
        let frame: [UInt8] = [200, 1, 2, 3]
        let message = try SyncMessage.decode(frame)
        #expect(message == .unknown(tag: 200, body: [1, 2, 3]))
        #expect(message.encode() == frame)
        #expect(try SyncMessage.decode([20]) == .unknown(tag: 20, body: []))

        let me = try CoreTestKit.id()
        let peer = try CoreTestKit.id()
        var core = CoreTestKit.core(me)
        core.discover([peer], now: .seconds(1))
        core.open([peer], hello: [], now: .seconds(1))
        let out = core.handle(.frameReceived(from: peer, message), now: .seconds(2))
        #expect(out.closes.isEmpty, "the session stays")
        #expect(out.messages(to: peer).isEmpty, "nothing is answered")
        let ping = core.handle(.frameReceived(from: peer, .ping), now: .seconds(4))
        #expect(ping.messages(to: peer) == [.pong], "and it goes on")
    }

    /// A frame carrying a delta of a later version's kind decodes, so the session that carries it goes
    /// on (the store refuses the delta, `LaterKindTests`); kind 0 is no kind at all.
    @Test func aDeltaOfALaterKindDoesNotSpoilItsFrame() throws {
        let a = try SigningKeyPair.generate()
        var envelope = CoreTestKit.log(1, key: a)[0].envelope  // byte 1 is the kind
        envelope[1] = 200
        let later = try SignedDelta(envelope: envelope, signature: a.sign(envelope))
        #expect(later.kind == nil && later.rawKind == 200)
        #expect(try SyncMessage.decode(SyncMessage.deltas([later]).encode()) == .deltas([later]))
        envelope[1] = 0
        #expect(throws: DecodeError.self) { try SignedDelta(envelope: envelope, signature: a.sign(envelope)) }
    }

    @Test func malformedMessagesAreRejected() throws {
        let a = try SigningKeyPair.generate()
        let encoded = SyncMessage.deltas(CoreTestKit.log(2, key: a)).encode()
        #expect(throws: DecodeError.self) { try SyncMessage.decode([]) }
        #expect(throws: DecodeError.self) { try SyncMessage.decode([0]) }
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
